// std::stable_sort for the views' vectors without its temporary buffer, which clang 19 with libstdc++ 12
// reports as deprecated: sorts indices, equal elements keep their order.
#pragma once

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

namespace pulpsim {

template <class T, class Less> void sort_keeping_order(std::vector<T>& v, Less less) {
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (less(v[a], v[b])) return true;
        if (less(v[b], v[a])) return false;
        return a < b;
    });
    std::vector<T> sorted;
    sorted.reserve(v.size());
    for (size_t i : order)
        sorted.push_back(std::move(v[i]));
    v = std::move(sorted);
}

} // namespace pulpsim
