#pragma once

#include <string>
#include <vector>

#include "wdl/model/wdl_model.hpp"

// Classes of evaluation: the states of the Markov chains (docs/markov.md). Every scheme is
// symmetric, so that class(-v) = mirror(class(v)) and Black's matrix follows from White's by the
// mirror rule of Alliot's "Who is the Master?", M_black(i, j) = M_white(n - 1 - i, n - 1 - j).
namespace wdl::markov {

// What lies between the two sides' classes.
enum class Centre {
    Split,      // nothing: 0 belongs to the first class above it (even class counts)
    ZeroClass,  // a class of exactly 0
    Band,       // one class [-b, b] around 0, b the first positive bound (odd class counts)
};

class ClassScheme {
  public:
    // Builds a scheme from its positive bounds in centipawns, strictly increasing, the last one
    // where the extreme class begins (an eval above it, mates included, is extreme). The
    // classes of a side are (0, b1], (b1, b2], ..., (b_last, infinity), mirrored below 0.
    // Throws wdl::Error for bounds that are not positive, increasing and at most 1000.
    ClassScheme(std::string name, std::string description, std::vector<double> positive_bounds,
                Centre centre);

    // Alliot's section 3.4: 10 classes of 0.4 pawns, extremes beyond +-1.6.
    static ClassScheme linear10();
    // Alliot's section 4.4.1: 19 classes, an exact-0 class, 8 log-spaced classes per side,
    // extremes beyond +-2.00 (see log19_bounds).
    static ClassScheme log19();
    // Bounds at equal steps of the expected score that `model` gives a displayed eval at its
    // target mom: class i of n holds the evals whose score lies in [i/n, (i+1)/n). Throws
    // wdl::Error if the model never reaches the last step within 10 pawns.
    static ClassScheme equal_score(const model::WdlModel& model, const std::string& model_name,
                                   int classes);
    // Bounds given in pawns (positive, increasing); a leading 0 asks for an exact-0 class.
    static ClassScheme custom(const std::vector<double>& pawns);

    int size() const { return size_; }
    // The class of a centipawn eval from the mover's view (mates are +-1001: extreme).
    int class_of(int centipawns) const;
    int mirror(int index) const { return size_ - 1 - index; }
    int first() const { return 0; }
    int last() const { return size_ - 1; }

    // The lower and upper limits of a class in centipawns (infinite for the extremes).
    double lower(int index) const { return lower_[std::size_t(index)]; }
    double upper(int index) const { return upper_[std::size_t(index)]; }
    // "<-2.00", "-2.00..-1.41", "0", "-0.11..0.11", "0.11..0.24", ">2.00" (pawns).
    std::string label(int index) const;

    const std::string& name() const { return name_; }
    const std::string& description() const { return description_; }
    const std::vector<double>& positive_bounds() const { return bounds_; }
    Centre centre() const { return centre_; }

  private:
    std::string name_, description_;
    std::vector<double> bounds_;
    Centre centre_;
    int size_ = 0;
    std::vector<int> class_by_centipawn_;  // index centipawns + kTableOffset
    std::vector<double> lower_, upper_;
};

// Alliot's 19-class widths read as bounds at equal steps of his factor
// f(v) = (e^(-v/100) - e^(-200/100)) / (e^0 - e^(-200/100)): bound i of 8 is where f = 1 - i/8,
// so that each class would hold the same share of positions if evals fell off like e^(-v/100).
// In centipawns: 11.44, 24.36, 39.19, 56.62, 77.74, 104.55, 141.30, 200.
std::vector<double> log19_bounds();

}  // namespace wdl::markov
