#include "fit_test_data.hpp"

#include <cstdio>
#include <stdexcept>

#include "program_runner.hpp"
#include "test_data.hpp"
#include "wdl/counts/count_file.hpp"

namespace wdl::testing {

std::vector<fit::MomData> load_reference_moms(const std::string& input,
                                              const fit::GridFilter& filter,
                                              const model::Normalization& normalization) {
    fit::CountGrid grid(filter, normalization);
    counts::read_count_file(test_data_path("reference/fit/" + input + ".gz"), grid);
    return fit::collect_mom_data(grid);
}

std::string reference_fit_output(const std::string& name) {
    return read_text_file(test_data_path("reference/fit/" + name + ".txt"));
}

model::Coefficients printed_coefficients(const std::string& text, const std::string& name) {
    std::string line = line_starting(text, "    constexpr double " + name + "[] = {");
    if (line.empty()) throw std::runtime_error("no " + name + " line");
    model::Coefficients c(4);
    std::sscanf(line.c_str() + line.find('{') + 1, "%lf, %lf, %lf, %lf", &c[0], &c[1], &c[2],
                &c[3]);
    return c;
}

double number_after(const std::string& text, const std::string& prefix) {
    std::string line = line_starting(text, prefix);
    if (line.empty()) throw std::runtime_error("no line " + prefix);
    return std::stod(line.substr(prefix.size()));
}

}  // namespace wdl::testing
