#pragma once

// The programs' entries: each parses its command line and runs its command (wdl::commands),
// returning the exit code. One executable of the program's name calls each (program_main.cpp);
// the programs of a component are compiled together, so that each translation unit compiles
// CLI11's code once for them all rather than once a program.
namespace wdl::programs {

int scoreWDLstat(int argc, char** argv);
int mergeWDLstat(int argc, char** argv);
int synthWDL(int argc, char** argv);
int annotateWDL(int argc, char** argv);
int queryWDL(int argc, char** argv);
int exportWDL(int argc, char** argv);
int scoreWDL(int argc, char** argv);
int compareWDL(int argc, char** argv);
int markovWDL(int argc, char** argv);
int trackWDL(int argc, char** argv);
int scaleWDL(int argc, char** argv);
int humanWDL(int argc, char** argv);
int download_fishtest_pgns(int argc, char** argv);
int download_missing_metadata(int argc, char** argv);
int archiveWDL(int argc, char** argv);
int generateTables(int argc, char** argv);
int scoreCompetence(int argc, char** argv);

}  // namespace wdl::programs
