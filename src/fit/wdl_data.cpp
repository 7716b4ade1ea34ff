#include "wdl/fit/wdl_data.hpp"

namespace wdl::fit {

std::vector<MomData> collect_mom_data(const CountGrid& grid) {
    std::vector<MomData> moms;
    moms.reserve(std::size_t(grid.mom_count()));
    for (int mom = grid.mom_min(); mom <= grid.mom_max(); ++mom) {
        MomData data;
        data.mom = mom;
        for (int eval = -grid.eval_max(); eval <= grid.eval_max(); ++eval) {
            const WdlCounts& counts = grid.at(mom, eval);
            if (counts.total() == 0) continue;
            data.cells.push_back(
                {double(eval), double(counts.wins), double(counts.draws), double(counts.losses)});
            data.wins += double(counts.wins);
            data.total += double(counts.total());
        }
        moms.push_back(std::move(data));
    }
    return moms;
}

}  // namespace wdl::fit
