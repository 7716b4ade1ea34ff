#include "wdl/tablebase/table_file.hpp"

#include <zstd.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include "wdl/tablebase/table_index.hpp"
#include "wdl/util/atomic_file.hpp"
#include "wdl/util/error.hpp"

namespace wdl::tablebase {
namespace {

constexpr std::string_view kMagic = "wdlfit-table";
constexpr int kVersion = 1;
// zstd's level 19 shrinks a 4-man table some 20 times; generation, not compression, dominates.
constexpr int kCompressionLevel = 19;

std::string lowercase(std::string text) {
    for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

}  // namespace

std::string table_file_name(const Material& material, Metric metric) {
    return material.canonical().name() + "." + lowercase(metric_name(metric)) + ".wdltb";
}

void write_table_file(const Table& table, const std::filesystem::path& path) {
    const auto& white = table.codes(chess::Color::White);
    const auto& black = table.codes(chess::Color::Black);
    std::string codes(white.begin(), white.end());
    codes.append(black.begin(), black.end());

    ZSTD_CCtx* context = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, kCompressionLevel);
    ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 1);
    std::string compressed(ZSTD_compressBound(codes.size()), '\0');
    std::size_t size =
        ZSTD_compress2(context, compressed.data(), compressed.size(), codes.data(), codes.size());
    ZSTD_freeCCtx(context);
    if (ZSTD_isError(size))
        throw wdl::Error(path.string() + ": cannot compress: " + ZSTD_getErrorName(size));
    compressed.resize(size);

    std::ostringstream header;
    header << kMagic << ' ' << kVersion << ' ' << table.material().name() << ' '
           << metric_name(table.metric()) << ' ' << white.size() << '\n';
    util::AtomicFile file(path);
    file.write(header.str());
    file.write(compressed);
    file.commit();
}

Table read_table_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw wdl::Error(path.string() + ": cannot open the table file");
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto fail = [&](const std::string& what) {
        return wdl::Error(path.string() + ": " + what + " (delete it to generate it again)");
    };
    std::size_t newline = content.find('\n');
    if (newline == std::string::npos || newline > 200) throw fail("not a wdlfit table file");
    std::istringstream header(content.substr(0, newline));
    std::string magic, material_name, metric_text;
    int version = 0;
    std::uint64_t positions = 0;
    header >> magic >> version >> material_name >> metric_text >> positions;
    auto material = Material::parse(material_name);
    auto metric = parse_metric(metric_text);
    if (!header || magic != kMagic || version != kVersion || !material || !metric ||
        !material->is_canonical())
        throw fail("not a wdlfit table file (bad header)");
    if (positions != TableIndex(*material).size()) throw fail("wrong table size in the header");

    std::string_view frame(content.data() + newline + 1, content.size() - newline - 1);
    unsigned long long expected = ZSTD_getFrameContentSize(frame.data(), frame.size());
    if (expected != 2 * positions) throw fail("damaged table data");
    std::vector<std::uint8_t> codes(2 * positions);
    std::size_t size = ZSTD_decompress(codes.data(), codes.size(), frame.data(), frame.size());
    if (ZSTD_isError(size))
        throw fail(std::string("damaged table data: ") + ZSTD_getErrorName(size));
    if (size != codes.size()) throw fail("damaged table data (wrong length)");
    std::vector<std::uint8_t> white(codes.begin(), codes.begin() + std::ptrdiff_t(positions));
    std::vector<std::uint8_t> black(codes.begin() + std::ptrdiff_t(positions), codes.end());
    return Table(*material, *metric, std::move(white), std::move(black));
}

}  // namespace wdl::tablebase
