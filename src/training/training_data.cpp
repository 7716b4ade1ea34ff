#include "wdl/training/training_data.hpp"

#include "wdl/io/block_reader.hpp"
#include "wdl/training/bin.hpp"
#include "wdl/training/binpack.hpp"
#include "wdl/training/bullet.hpp"
#include "wdl/training/plain.hpp"

namespace wdl::training {

const char* format_name(TrainingFormat format) {
    switch (format) {
        case TrainingFormat::Binpack:
            return "binpack";
        case TrainingFormat::Plain:
            return "plain";
        case TrainingFormat::Bullet:
            return "bullet";
        case TrainingFormat::Bin:
            return "bin";
    }
    return "?";
}

std::optional<TrainingFormat> format_named(std::string_view name) {
    for (auto format : {TrainingFormat::Binpack, TrainingFormat::Plain, TrainingFormat::Bullet,
                        TrainingFormat::Bin})
        if (name == format_name(format)) return format;
    return std::nullopt;
}

std::optional<TrainingFormat> format_of_file(const std::filesystem::path& path) {
    auto name = path.filename();
    if (io::compression_for(path) != io::Compression::None) name = name.stem();
    auto extension = name.extension();
    if (extension == ".binpack") return TrainingFormat::Binpack;
    if (extension == ".plain") return TrainingFormat::Plain;
    if (extension == ".bin") return TrainingFormat::Bin;
    return std::nullopt;
}

const games::RecordLayout& record_layout(TrainingFormat format) {
    switch (format) {
        case TrainingFormat::Binpack:
            return binpack_layout();
        case TrainingFormat::Plain:
            return plain_layout();
        case TrainingFormat::Bin:
            return bin_layout();
        case TrainingFormat::Bullet:
            break;
    }
    return bullet_layout();
}

ChunkReading read_chunk(TrainingFormat format, std::string_view bytes, std::uint64_t offset,
                        PositionSink& sink) {
    switch (format) {
        case TrainingFormat::Binpack:
            return read_binpack(bytes, offset, sink);
        case TrainingFormat::Plain:
            return read_plain(bytes, offset, sink);
        case TrainingFormat::Bin:
            return read_bin(bytes, offset, sink);
        case TrainingFormat::Bullet:
            break;
    }
    return read_bullet(bytes, offset, sink);
}

}  // namespace wdl::training
