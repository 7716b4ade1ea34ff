#!/usr/bin/env python3
"""Writes a deterministic benchmark corpus in fishtest's download layout.

The games are derived from the real engine games of data/ (Stockfish self-play), made into
other games and other tests so that the corpus has the variety of real downloads:
- tests of several kinds: EPD books with FEN starts (UHO-like), DFRC books (Chess960 with
  Shredder-FEN castling, Variant "fischerandom" or "Chess960"), PGN books from the initial
  position with {book} plies;
- cutechess-era (trimmed times, tags in cutechess order) and fastchess-era (3-decimal times,
  WhiteTimeControl/BlackTimeControl when new_tc != tc) comment and tag styles;
- one file per test or several task files `<id>-<task>.pgn.gz`, each a concatenation of many
  gzip members as fishtest's run_pgns files are;
- new games: half of the FEN-start games are played mirrored (board flipped, colours swapped:
  still legal, another start position, other move numbers), and every engine eval is moved by
  a few centipawns and its depth and time redrawn, so that the count keys are those of a larger
  pool of games, not a repetition of data/'s.
Same arguments, same bytes (fixed seeds, gzip headers without a time stamp).

Usage: make_bench_corpus.py OUT_DIR [--files 400] [--text-mb 190] [--tests 40] [--seed 11]
"""

import argparse
import gzip
import json
import random
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TOKEN = re.compile(r"\{[^}]*\}|[^\s{]+")
TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
ENGINE_COMMENT = re.compile(r"^([+-]?)(M\d+|\d+\.\d+)/(\d+) [\d.]+s(,.*)?$")


def read_source_games():
    """Every game of data/ as (tags, [(san, comment)], result)."""
    games = []
    for path in sorted((REPO / "data").glob("*/*/*.pgn.gz")):
        text = gzip.decompress(path.read_bytes()).decode()
        for block in re.split(r"\n\n(?=\[)", text.strip()):
            tags, movetext = {}, []
            for line in block.splitlines():
                match = TAG.match(line)
                if match:
                    tags[match.group(1)] = match.group(2)
                elif line.strip():
                    movetext.append(line)
            moves, result = [], "*"
            for token in TOKEN.findall(" ".join(movetext)):
                if token.startswith("{"):
                    moves[-1][1] = token[1:-1]
                elif token in RESULTS:
                    result = token
                elif not re.match(r"^\d+\.", token):
                    moves.append([token, None])
            games.append((tags, moves, result))
    return games


def flip_fen(fen):
    """The position seen from the other side: ranks reversed, colours swapped."""
    placement, side, castling, ep, *counters = fen.split()
    placement = "/".join(reversed(placement.swapcase().split("/")))
    side = "b" if side == "w" else "w"
    if castling != "-":
        castling = castling.swapcase()
        castling = "".join(sorted(castling, key=lambda c: c.islower()))
    if ep != "-":
        ep = ep[0] + str(9 - int(ep[1]))
    return " ".join([placement, side, castling, ep, *counters])


def flip_san(san):
    return "".join(str(9 - int(c)) if c in "12345678" else c for c in san)


def swap_colours(text):
    return text.replace("White", "\0").replace("Black", "White").replace("\0", "Black")


def flip_game(tags, moves, result):
    tags = dict(tags)
    tags["FEN"] = flip_fen(tags["FEN"])
    flipped = [[flip_san(san), swap_colours(c) if c else c] for san, c in moves]
    result = {"1-0": "0-1", "0-1": "1-0"}.get(result, result)
    return tags, flipped, result


def jitter_comment(comment, rng, style):
    """An engine comment with its eval moved by a few centipawns, new depth and time."""
    match = ENGINE_COMMENT.match(comment)
    if not match:
        return comment  # {book} and anything else stay as they are
    sign, value, depth, reason = match.groups()
    if value.startswith("M"):
        score = sign + value
    else:
        cp = round(float(value) * 100) * (-1 if sign == "-" else 1) + rng.randint(-4, 4)
        score = ("+" if cp > 0 else "-" if cp < 0 else "") + f"{abs(cp) / 100:.2f}"
    depth = max(1, int(depth) + rng.randint(-1, 1))
    seconds = rng.choice((0.002, 0.003, 0.004, 0.005, 0.006, 0.008, 0.01, 0.012, 0.02, 0.04))
    seconds *= rng.uniform(0.8, 1.25)
    time = f"{seconds:.3f}" if style == "fastchess" else f"{seconds:.3f}".rstrip("0")
    return f"{score}/{depth} {time}s{reason or ''}"


def movetext_lines(moves, result, fen, rng, style):
    """Movetext wrapped at 80 columns between (number, move, comment) units."""
    side, number = "w", 1
    if fen:
        fields = fen.split()
        side = fields[1]
        number = int(fields[5]) if len(fields) > 5 else 1
    units = []
    for index, (san, comment) in enumerate(moves):
        prefix = f"{number}. " if side == "w" else (f"{number}... " if index == 0 else "")
        unit = prefix + san
        if comment is not None:
            unit += " {" + jitter_comment(comment, rng, style) + "}"
        units.append(unit)
        if side == "b":
            number += 1
        side = "b" if side == "w" else "w"
    units.append(result)
    lines, line = [], ""
    for unit in units:
        if line and len(line) + 1 + len(unit) > 80:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    lines.append(line)
    return lines


class Test:
    KINDS = (  # (book, book_depth, source pool, share of tests)
        ("UHO_Lichess_4852_v1.epd", "-1", "fen", 4),
        ("UHO_XXL_+0.90_+1.19.epd", "-1", "fen", 2),
        ("noob_3moves.epd", "-1", "fen", 1),
        ("DFRC_openings.epd", "-1", "dfrc", 2),
        ("8moves_v3.pgn", "8", "book", 1),
    )

    def __init__(self, number, rng):
        self.rng = rng
        book, depth, pool, _ = rng.choices(self.KINDS, weights=[k[3] for k in self.KINDS])[0]
        self.book, self.book_depth, self.pool = book, depth, pool
        self.id = "%024x" % rng.getrandbits(96)
        year, month, day = rng.randint(2023, 2025), rng.randint(1, 12), rng.randint(1, 28)
        self.date = (year, month, day)
        self.style = "cutechess" if (year, month) < (2024, 6) else "fastchess"
        self.ltc = rng.random() < 0.4
        self.tc = "60+0.6" if self.ltc else "10+0.1"
        self.new_tc = self.tc if rng.random() < 0.85 else ("9.5+0.095" if not self.ltc else "57+0.57")
        self.threads = 8 if rng.random() < 0.1 else 1
        self.new_sha, self.base_sha = "%040x" % rng.getrandbits(160), "%040x" % rng.getrandbits(160)
        self.new_tag = rng.choice(("tweak_lmr", "timeman", "smp_fix", "nnue_v9", "razor", "see"))
        self.variant = rng.choice(("fischerandom", "Chess960"))
        self.batch = number
        self.wins = self.losses = self.draws = 0

    def directory(self):
        year, month, day = self.date
        return f"{year % 100:02d}-{month:02d}-{day:02d}/{self.id}"

    def time_control(self, tc):
        base, increment = (float(x) for x in tc.split("+"))
        scale = self.rng.uniform(0.85, 1.08)
        return f"{base * scale:.3f}".rstrip("0").rstrip(".") + "+" + f"{increment * scale:.3f}".rstrip("0")

    def game_text(self, source, round_number):
        tags, moves, result = source
        fen = tags.get("FEN")
        if fen and self.rng.random() < 0.5:
            tags, moves, result = flip_game(tags, moves, result)
            fen = tags["FEN"]
        new_is_white = round_number % 2 == 1
        white = f"New-{self.new_sha}" if new_is_white else f"Base-{self.base_sha}"
        black = f"Base-{self.base_sha}" if new_is_white else f"New-{self.new_sha}"
        if result in ("1-0", "0-1"):
            new_won = (result == "1-0") == new_is_white
            self.wins += new_won
            self.losses += not new_won
        elif result == "1/2-1/2":
            self.draws += 1
        year, month, day = self.date
        hour, minute, second = self.rng.randint(0, 23), self.rng.randint(0, 59), self.rng.randint(0, 58)
        zone = "UTC" if self.style == "cutechess" else "+0000"
        start = f"{year}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d} {zone}"
        end = f"{year}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second + 1:02d} {zone}"
        out = [
            ("Event", f"Batch {self.batch}: {self.new_tag} vs master"),
            ("Site", f"https://tests.stockfishchess.org/tests/view/{self.id}"),
            ("Date", f"{year}.{month:02d}.{day:02d}"),
            ("Round", str(round_number)),
            ("White", white),
            ("Black", black),
            ("Result", result),
        ]
        timing = [("GameDuration", "00:00:01")]
        timing += [("GameEndTime", end), ("GameStartTime", start)]
        if self.style == "fastchess":
            timing[1:] = reversed(timing[1:])
        setup = [("SetUp", "1"), ("FEN", fen)] if fen else []
        if self.style == "cutechess":
            out += setup[1:] + timing + [("PlyCount", str(len(moves)))] + setup[:1]
        else:
            out += setup + timing + [("PlyCount", str(len(moves)))]
        if "Termination" in tags:
            out.append(("Termination", tags["Termination"]))
        if self.new_tc == self.tc or self.style == "cutechess":
            out.append(("TimeControl", self.time_control(self.tc)))
        else:
            new_tc = self.time_control(self.new_tc)
            base_tc = self.time_control(self.tc)
            out.append(("WhiteTimeControl", new_tc if new_is_white else base_tc))
            out.append(("BlackTimeControl", base_tc if new_is_white else new_tc))
        if self.pool == "dfrc":
            out.append(("Variant", self.variant))
        lines = [f'[{name} "{value}"]' for name, value in out]
        lines.append("")
        lines += movetext_lines(moves, result, fen, self.rng, self.style)
        return "\n".join(lines) + "\n\n"

    def metadata(self):
        args = {
            "book": self.book,
            "book_depth": self.book_depth,
            "tc": self.tc,
            "new_tc": self.new_tc,
            "threads": self.threads,
            "resolved_base": self.base_sha,
            "resolved_new": self.new_sha,
            "new_tag": self.new_tag,
            "base_tag": "master",
        }
        if self.rng.random() < 0.8:
            args["sprt"] = {"elo0": 0, "elo1": 2, "alpha": 0.05, "beta": 0.05}
        games = self.wins + self.losses + self.draws
        pairs = games // 2
        # A pentanomial consistent with the totals, for tools that read it.
        half = pairs // 2
        pentanomial = [pairs // 10, pairs // 5, half - pairs // 10 - pairs // 5, pairs // 5, 0]
        pentanomial[4] = pairs - sum(pentanomial[:4])
        year, month, day = self.date
        return {
            "args": args,
            "results": {"wins": self.wins, "losses": self.losses, "draws": self.draws,
                        "pentanomial": pentanomial},
            "start_time": f"{year}-{month:02d}-{day:02d}T00:00:00.000+00:00",
            "_id": self.id,
        }


def pools(games):
    by_pool = {"fen": [], "dfrc": [], "book": []}
    for game in games:
        tags, moves, _ = game
        if "Variant" in tags:
            by_pool["dfrc"].append(game)
        elif "FEN" in tags:
            by_pool["fen"].append(game)
        elif any(comment == "book" for _, comment in moves):
            by_pool["book"].append(game)
    return by_pool


def gzip_members(text_games, rng):
    """The games of one file as a concatenation of gzip members of 10-120 games each."""
    out, index = bytearray(), 0
    while index < len(text_games):
        count = rng.randint(10, 120)
        member = "".join(text_games[index:index + count]).encode()
        out += gzip.compress(member, compresslevel=6, mtime=0)
        index += count
    return bytes(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--text-mb", type=float, default=190)
    parser.add_argument("--tests", type=int, default=40)
    parser.add_argument("--seed", type=int, default=11)
    options = parser.parse_args()

    by_pool = pools(read_source_games())
    rng = random.Random(options.seed)
    tests = [Test(number, random.Random(rng.getrandbits(64))) for number in range(options.tests)]
    # Every test gets at least one file; the rest go to tests at random, so that some tests
    # have one big file and others many task files.
    files_of = [1] * options.tests
    for _ in range(options.files - options.tests):
        files_of[rng.randrange(options.tests)] += 1
    mean_game_bytes = 3300
    games_per_file = options.text_mb * 1e6 / mean_game_bytes / options.files
    text_bytes = 0
    for test, file_count in zip(tests, files_of):
        directory = options.out_dir / test.directory()
        directory.mkdir(parents=True, exist_ok=True)
        pool = by_pool[test.pool]
        round_number = 0
        for task in range(file_count):
            count = max(2, int(games_per_file * test.rng.uniform(0.4, 1.6)))
            texts = []
            for _ in range(count):
                round_number += 1
                texts.append(test.game_text(test.rng.choice(pool), round_number))
            text_bytes += sum(len(t) for t in texts)
            name = f"{test.id}.pgn.gz" if file_count == 1 else f"{test.id}-{task}.pgn.gz"
            (directory / name).write_bytes(gzip_members(texts, test.rng))
        (directory / f"{test.id}.json").write_text(json.dumps(test.metadata(), indent=1) + "\n")
    print(f"{options.files} files in {options.tests} tests, {text_bytes / 1e6:.0f} MB of PGN text")


if __name__ == "__main__":
    main()
