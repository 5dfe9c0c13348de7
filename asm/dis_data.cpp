#include "dis_data.h"

#include <algorithm>
#include <map>

namespace dis {

namespace {

struct ArrayInfo {
  std::int64_t elem_size = 0;
  std::int64_t length = 0;
};

// A region is module data (empty path) or the data of one array, named by
// the path of the slot holding its pointer.
struct Base {
  std::vector<std::int64_t> region;
  std::int64_t region_size = 0;
  std::int64_t offset = 0;  // of the current base inside the region
};

std::int64_t value_width(DataKind k) {
  switch (k) {
    case DataKind::Bytes:
      return 1;
    case DataKind::Words:
    case DataKind::String:
    case DataKind::Array:
    case DataKind::SetIndex:  // reads the array pointer stored there
      return 4;
    case DataKind::Reals:
    case DataKind::Bigs:
      return 8;
    case DataKind::PopBase:
      return 0;
  }
  return 0;
}

bool is_numeric(DataKind k) {
  return k == DataKind::Bytes || k == DataKind::Words || k == DataKind::Reals ||
         k == DataKind::Bigs;
}

const TypeDesc* find_type(const Module& m, std::int64_t id) {
  for (const TypeDesc& t : m.types)
    if (t.id == id) return &t;
  return nullptr;
}

}  // namespace

std::optional<DataError> walk_data(const Module& m, const std::function<void(DataValue&&)>& store) {
  std::vector<Base> stack{Base{{}, m.data_size, 0}};
  std::map<std::vector<std::int64_t>, ArrayInfo> arrays;  // pointer slot -> array

  auto path_of = [&](std::int64_t pos) {
    std::vector<std::int64_t> p = stack.back().region;
    p.push_back(pos);
    return p;
  };
  // A store over a slot that held an array pointer replaces the pointer, and
  // the arrays stored inside that array become unreachable too. Keys below
  // one slot are contiguous in the map's lexicographic order.
  auto forget_arrays = [&](std::int64_t pos, std::int64_t width) {
    const std::vector<std::int64_t>& region = stack.back().region;
    auto it = arrays.lower_bound(path_of(pos - 3));
    while (it != arrays.end() && it->first.size() > region.size() &&
           std::equal(region.begin(), region.end(), it->first.begin()) &&
           it->first[region.size()] < pos + std::max<std::int64_t>(width, 1))
      it = arrays.erase(it);
  };

  for (std::size_t i = 0; i < m.data.size(); ++i) {
    const DataItem& d = m.data[i];
    auto fail = [&](std::string msg) { return DataError{i, std::move(msg)}; };
    const Base& base = stack.back();
    const std::int64_t start = base.offset + d.offset;
    std::int64_t n = 1;
    if (is_numeric(d.kind)) n = static_cast<std::int64_t>(d.values.size());
    if (d.kind == DataKind::PopBase) n = 0;
    const std::int64_t width = value_width(d.kind) * n;
    const char* where = stack.size() == 1 ? "module data" : "the array";
    if (d.kind != DataKind::PopBase &&
        (d.offset < 0 || start < 0 || start + width > base.region_size))
      return fail("data item at offset " + std::to_string(d.offset) + " (" + std::to_string(width) +
                  " bytes) lies outside " + where + " (" +
                  std::to_string(base.region_size - base.offset) + " bytes from its base)");
    switch (d.kind) {
      case DataKind::Bytes:
      case DataKind::Words:
      case DataKind::Reals:
      case DataKind::Bigs: {
        forget_arrays(start, width);
        const std::int64_t w = value_width(d.kind);
        for (std::size_t k = 0; k < d.values.size(); ++k)
          store(DataValue{
              path_of(start + w * static_cast<std::int64_t>(k)), d.kind, d.values[k], 0, {}});
        break;
      }
      case DataKind::String:
        forget_arrays(start, 4);
        store(DataValue{path_of(start), d.kind, 0, 0, d.text});
        break;
      case DataKind::Array: {
        if (d.values.size() != 2) return fail("array item needs a type and a length");
        const TypeDesc* t = find_type(m, d.values[0]);
        if (t == nullptr) return fail("array of unknown type " + std::to_string(d.values[0]));
        if (d.values[1] < 0) return fail("negative array length " + std::to_string(d.values[1]));
        forget_arrays(start, 4);
        arrays[path_of(start)] = ArrayInfo{t->size, d.values[1]};
        store(DataValue{path_of(start), d.kind, d.values[0], d.values[1], {}});
        break;
      }
      case DataKind::SetIndex: {
        if (d.values.size() != 1) return fail("index item needs one index");
        auto it = arrays.find(path_of(start));
        if (it == arrays.end())
          return fail("index item at offset " + std::to_string(d.offset) +
                      " does not name an array stored earlier");
        const std::int64_t index = d.values[0];
        if (index < 0 || index > it->second.length)
          return fail("array index " + std::to_string(index) + " outside 0.." +
                      std::to_string(it->second.length));
        if (static_cast<int>(stack.size()) > kDataBaseDepth)
          return fail("array initialisers nested deeper than " + std::to_string(kDataBaseDepth));
        Base nb{it->first, it->second.elem_size * it->second.length, it->second.elem_size * index};
        stack.push_back(std::move(nb));
        break;
      }
      case DataKind::PopBase:
        if (stack.size() == 1) return fail("restore-base item with no saved base");
        stack.pop_back();
        break;
    }
  }
  return std::nullopt;
}

std::vector<DataValue> flatten_data(const Module& m) {
  std::vector<DataValue> out;
  if (auto err = walk_data(m, [&](DataValue&& v) { out.push_back(std::move(v)); }))
    throw InputError(Diagnostic{m.name, 0, 0, -1,
                                "data item " + std::to_string(err->item) + ": " + err->message});
  // A value stored inside an array that a later item replaced is gone.
  std::map<std::vector<std::int64_t>, std::size_t> last_array;  // slot -> store index
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i].kind == DataKind::Array) last_array[out[i].path] = i;
  auto replaced = [&](std::size_t i) {
    std::vector<std::int64_t> prefix;
    for (std::size_t k = 0; k + 1 < out[i].path.size(); ++k) {
      prefix.push_back(out[i].path[k]);
      auto it = last_array.find(prefix);
      if (it != last_array.end() && it->second > i) return true;
    }
    return false;
  };
  std::vector<std::pair<std::size_t, DataValue>> live;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!replaced(i)) live.emplace_back(i, std::move(out[i]));
  std::stable_sort(live.begin(), live.end(),
                   [](const auto& a, const auto& b) { return a.second.path < b.second.path; });
  // Keep the last store of each location (the last of each run of equal paths).
  std::vector<DataValue> result;
  for (std::size_t i = 0; i < live.size(); ++i)
    if (i + 1 == live.size() || live[i + 1].second.path != live[i].second.path)
      result.push_back(std::move(live[i].second));
  return result;
}

std::vector<DataItem> merge_data_items(const std::vector<DataItem>& items) {
  std::vector<DataItem> out;
  for (const DataItem& d : items) {
    if (!out.empty() && is_numeric(d.kind) && out.back().kind == d.kind &&
        !out.back().values.empty() && !d.values.empty() &&
        static_cast<std::int64_t>(out.back().offset) +
                value_width(d.kind) * static_cast<std::int64_t>(out.back().values.size()) ==
            d.offset) {
      out.back().values.insert(out.back().values.end(), d.values.begin(), d.values.end());
      continue;
    }
    out.push_back(d);
  }
  return out;
}

}  // namespace dis
