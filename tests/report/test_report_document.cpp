#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "program_runner.hpp"
#include "wdl/report/report_document.hpp"
#include "wdl/util/base64.hpp"

namespace fs = std::filesystem;
using namespace wdl::report;

namespace {

Document sample_document() {
    Document document;
    document.title = "Refit <of> the model";
    document.introduction.push_back({"Made by `scoreWDL --report out` from a_b*c."});
    Section section;
    section.title = "Numbers";
    section.blocks.push_back(Paragraph{"The old value 328 lies inside 325 .. 331."});
    section.blocks.push_back(Preformatted{{"const int NormalizeToPawnValue = 356;", "a ``` b"}});
    section.blocks.push_back(Table{{"material", "old | new"}, {{"58", "1.00 | 0.93"}}});
    section.blocks.push_back(Image{"fit.png", "The fit <summary>"});
    section.reproduced_by = "`scoreWDL counts.json --json fit.json`";
    document.sections.push_back(section);
    return document;
}

}  // namespace

TEST_CASE("the Markdown report has every block, its markup escaped", "[report]") {
    auto markdown = markdown_of(sample_document());
    CHECK(markdown.starts_with("# Refit \\<of\\> the model\n"));
    // Code keeps its characters; plain text escapes Markdown's.
    CHECK(markdown.find("Made by `scoreWDL --report out` from a\\_b\\*c.") != std::string::npos);
    CHECK(markdown.find("## Numbers\n") != std::string::npos);
    // A fence longer than the backticks inside the quoted lines.
    CHECK(markdown.find("````text\nconst int NormalizeToPawnValue = 356;\na ``` b\n````\n") !=
          std::string::npos);
    CHECK(markdown.find("| material | old \\| new |\n|---|---:|\n| 58 | 1.00 \\| 0.93 |\n") !=
          std::string::npos);
    CHECK(markdown.find("![The fit \\<summary\\>](fit.png)") != std::string::npos);
    CHECK(markdown.find("Reproduce: `scoreWDL counts.json --json fit.json`") != std::string::npos);
}

TEST_CASE("the HTML report embeds its images and escapes its text", "[report]") {
    fs::path dir = wdl::testing::fresh_directory("report_document");
    std::string png("\x89PNG\r\n\x1a\n some bytes", 19);
    wdl::testing::write_text_file(dir / "fit.png", png);
    auto html = html_of(sample_document(), dir);
    CHECK(html.find("<h1>Refit &lt;of&gt; the model</h1>") != std::string::npos);
    CHECK(html.find("<code>scoreWDL --report out</code>") != std::string::npos);
    CHECK(html.find("src=\"data:image/png;base64," + wdl::util::base64_encode(png) + "\"") !=
          std::string::npos);
    CHECK(html.find("<figcaption>The fit &lt;summary&gt;</figcaption>") != std::string::npos);
    CHECK(html.find("<td>1.00 | 0.93</td>") != std::string::npos);
    CHECK(html.find("data-images-loaded") != std::string::npos);
    // Self-contained: nothing is fetched from elsewhere.
    CHECK(html.find("http") == std::string::npos);
    CHECK(html.find("src=\"fit.png\"") == std::string::npos);

    write_report(sample_document(), dir);
    CHECK(wdl::testing::read_text_file(dir / "report.md") == markdown_of(sample_document()));
    CHECK(wdl::testing::read_text_file(dir / "report.html") == html);
}

TEST_CASE("long quotes are folded away in both forms, short ones not", "[report]") {
    Document document;
    document.title = "Logs";
    Section section{"Run", {}, ""};
    section.blocks.push_back(Preformatted{std::vector<std::string>(12, "short")});
    section.blocks.push_back(Preformatted{std::vector<std::string>(13, "long")});
    document.sections.push_back(section);
    auto markdown = markdown_of(document);
    CHECK(markdown.find("<details><summary>13 lines</summary>\n\n```text\nlong\n") !=
          std::string::npos);
    CHECK(markdown.find("<summary>12 lines") == std::string::npos);
    CHECK(markdown.find("long\n```\n\n</details>\n") != std::string::npos);
    auto html = html_of(document, ".");
    CHECK(html.find("<details><summary>13 lines</summary>\n<pre>long\n") != std::string::npos);
    CHECK(html.find("</pre>\n</details>") != std::string::npos);
    CHECK(html.find("<summary>12 lines") == std::string::npos);
}

TEST_CASE("the HTML report names an image it cannot read", "[report]") {
    fs::path dir = wdl::testing::fresh_directory("report_document_missing");
    CHECK_THROWS_WITH(html_of(sample_document(), dir), Catch::Matchers::Contains("fit.png"));
    CHECK_FALSE(fs::exists(dir / "report.html"));
}
