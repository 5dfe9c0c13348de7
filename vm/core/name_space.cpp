// Binds as Plan 9's mount table keeps them (name_space.h): a union is the
// list of directories a walk searches, in order, for each element.
#include "name_space.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace dis::vm {

namespace {

std::vector<std::string> split(std::string_view path) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.emplace_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

std::string join(const std::string& dir, const std::string& elem) {
  if (dir == "/") return "/" + elem;
  if (dir.empty()) return elem;  // a host-relative walk's start
  return dir + "/" + elem;
}

// A device's own root ("#p"), or "/": where an absolute path starts.
bool is_absolute(const std::string& p) { return !p.empty() && (p[0] == '/' || p[0] == '#'); }

}  // namespace

std::string NameSpace::clean(const std::string& path) {
  if (path.empty()) return ".";
  const bool rooted = path[0] == '/';
  std::vector<std::string> out;
  for (std::string& e : split(path)) {
    if (e == ".") continue;
    if (e == "..") {
      // A device root ("#p") is as final as "/".
      if (!out.empty() && out.back() != ".." && !(out.size() == 1 && !rooted && out[0][0] == '#'))
        out.pop_back();
      else if (!rooted && (out.empty() || out.back() == ".."))
        out.push_back(e);
      continue;
    }
    out.push_back(std::move(e));
  }
  std::string r = rooted ? "/" : "";
  for (std::size_t i = 0; i < out.size(); ++i) r += (i ? "/" : "") + out[i];
  return r.empty() ? "." : r;
}

std::string NameSpace::absolute(const std::string& path) const {
  if (is_absolute(path) || dot.empty()) return clean(path);
  return clean(dot + "/" + path);
}

const NameSpace::Union* NameSpace::find(const std::string& concrete) const {
  for (const Union& u : unions_)
    if (u.on == concrete) return &u;
  return nullptr;
}

std::vector<std::string> NameSpace::walk(const std::string& path, const Exists& exists,
                                         std::string* key) const {
  const std::string p = absolute(path);
  if (unions_.empty() || p == ".") {
    if (key) *key = p;
    return {p};
  }
  std::vector<std::string> elems = split(p);
  // A relative path (the host's working directory still dot) starts at "".
  std::string cur = is_absolute(p) ? "/" : "";
  std::size_t first = 0;
  if (p[0] == '#') cur = elems[first++];
  auto members = [this](const std::string& at) {
    std::vector<std::string> r;
    if (const Union* u = find(at))
      for (const Member& m : u->members) r.push_back(m.path);
    if (r.empty()) r.push_back(at);
    return r;
  };
  std::vector<std::string> cands = members(cur);
  for (std::size_t i = first; i < elems.size(); ++i) {
    std::string chosen;
    for (const std::string& c : cands)
      if (exists(join(c, elems[i]))) {
        chosen = join(c, elems[i]);
        break;
      }
    if (chosen.empty()) chosen = join(cands.front(), elems[i]);
    cur = chosen;
    cands = members(cur);
  }
  if (key) *key = cur;
  return cands;
}

std::vector<std::string> NameSpace::resolve(const std::string& path, const Exists& exists) const {
  return walk(path, exists, nullptr);
}

std::string NameSpace::create_target(const std::string& dir, const Exists& exists) const {
  std::string key;
  std::vector<std::string> cands = walk(dir, exists, &key);
  const Union* u = find(key);
  if (!u) return cands.front();
  for (const Member& m : u->members)
    if (m.flags & kMCREATE) return m.path;
  return "";
}

bool NameSpace::bind(const std::string& src, const std::string& on, std::int32_t flags,
                     const Exists& exists, std::string& err) {
  const std::int32_t order = flags & (kMBEFORE | kMAFTER);
  if ((flags & ~(kMBEFORE | kMAFTER | kMCREATE)) || order == (kMBEFORE | kMAFTER)) {
    err = "bad arg in system call";
    return false;
  }
  const std::string from = resolve(src, exists).front();
  std::string key;
  walk(on, exists, &key);
  for (const std::string* p : std::initializer_list<const std::string*>{&from, &key})
    if (*p == "." || !exists(*p)) {
      err = "'" + (p == &from ? src : on) + "' file does not exist";
      return false;
    }
  Member m{from, flags};
  auto it =
      std::find_if(unions_.begin(), unions_.end(), [&](const Union& u) { return u.on == key; });
  if (it == unions_.end()) {
    unions_.push_back({key, {}});
    it = unions_.end() - 1;
    // The directory itself stays in a union it starts, where creates may
    // not go (Plan 9's "mounted directory forbids creation").
    if (order != kMREPL) it->members.push_back({key, 0});
  }
  if (order == kMREPL)
    it->members.assign(1, m);
  else if (order == kMBEFORE)
    it->members.insert(it->members.begin(), m);
  else
    it->members.push_back(m);
  return true;
}

bool NameSpace::unmount(const std::string& src, const std::string& on, const Exists& exists,
                        std::string& err) {
  std::string key;
  walk(on, exists, &key);
  auto it =
      std::find_if(unions_.begin(), unions_.end(), [&](const Union& u) { return u.on == key; });
  if (it == unions_.end()) {
    err = "not mounted";
    return false;
  }
  if (src.empty()) {
    unions_.erase(it);
    return true;
  }
  const std::string from = resolve(src, exists).front();
  auto m = std::find_if(it->members.begin(), it->members.end(),
                        [&](const Member& x) { return x.path == from && from != key; });
  if (m == it->members.end()) {
    err = "not in union";
    return false;
  }
  it->members.erase(m);
  if (it->members.empty() || (it->members.size() == 1 && it->members[0].path == key))
    unions_.erase(it);
  return true;
}

std::vector<std::string> NameSpace::describe(const std::string& host_dot) const {
  // Lines that, run in order, build the same unions: the first member
  // replaces, the others follow it.
  std::vector<std::string> out;
  for (const Union& u : unions_)
    for (std::size_t i = 0; i < u.members.size(); ++i) {
      std::string flags = i ? "a" : "";
      if (u.members[i].flags & kMCREATE) flags += "c";
      out.push_back("bind " + (flags.empty() ? "" : "-" + flags + " ") + u.members[i].path + " " +
                    u.on);
    }
  out.push_back("cd " + (dot.empty() ? host_dot : dot));
  return out;
}

std::shared_ptr<NameSpace> NameSpace::fresh() const {
  auto n = std::make_shared<NameSpace>();
  n->dot = dot;
  return n;
}

}  // namespace dis::vm
