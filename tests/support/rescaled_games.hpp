#pragma once
// The bundled games with one engine's evals multiplied by a known factor: a truth to hold the
// scale comparison to (its comments rewritten, as another engine's evals would read).

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <string_view>

namespace wdl::testing {

// The PGN text with the evals of the moves of the player whose name starts with `prefix`
// multiplied by `factor` (only its positive ones when `positive_only`), written back with two
// decimals. Mate scores and other comments are left as they are.
inline std::string rescaled_evals(std::string_view pgn, std::string_view prefix, double factor,
                                  bool positive_only) {
    std::string out;
    std::string white, black;
    bool white_to_move = true, in_movetext = false;
    std::size_t i = 0;
    auto tag_value = [](std::string_view line) {
        auto open = line.find('"'), close = line.rfind('"');
        return std::string(line.substr(open + 1, close - open - 1));
    };
    while (i < pgn.size()) {
        if (pgn[i] == '[' && (i == 0 || pgn[i - 1] == '\n')) {
            std::size_t end = pgn.find('\n', i);
            std::string_view line = pgn.substr(i, end - i);
            if (line.starts_with("[Event ")) white_to_move = true, in_movetext = false;
            if (line.starts_with("[White ")) white = tag_value(line);
            if (line.starts_with("[Black ")) black = tag_value(line);
            if (line.starts_with("[FEN "))
                white_to_move = tag_value(line).find(" b ") == std::string::npos;
            out.append(line);
            i = end;
            continue;
        }
        char c = pgn[i];
        if (c == '{') {
            std::size_t close = pgn.find('}', i);
            std::string comment(pgn.substr(i + 1, close - i - 1));
            // The comment is of the last move, made by the side that is not to move now.
            const std::string& mover = white_to_move ? black : white;
            if (in_movetext && mover.starts_with(prefix)) {
                std::size_t digits = comment.find_first_not_of("+-0123456789.");
                std::string number = comment.substr(0, digits);
                if (!number.empty() && number.find('.') != std::string::npos &&
                    (number[0] == '+' || number[0] == '-' || std::isdigit(number[0]))) {
                    double value = std::stod(number);
                    if (!positive_only || value > 0) value *= factor;
                    comment = fmt::format("{:+.2f}", value) + comment.substr(number.size());
                }
            }
            out += '{' + comment + '}';
            i = close + 1;
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(c))) {
            std::size_t end = pgn.find_first_of(" \n\r\t{", i);
            if (end == std::string_view::npos) end = pgn.size();
            std::string_view token = pgn.substr(i, end - i);
            bool number = std::isdigit(static_cast<unsigned char>(token[0])) &&
                          token.find('.') != std::string_view::npos;
            bool result = token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
            if (!number && !result) {
                in_movetext = true;
                white_to_move = !white_to_move;
            }
            out.append(token);
            i = end;
            continue;
        }
        out += c;
        ++i;
    }
    return out;
}

}  // namespace wdl::testing
