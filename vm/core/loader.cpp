// Loading: Module -> verified, decoded Program; Program -> module instance
// (Modlink) with fresh module data; `load` by path with import linking.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>

#include "assembler.h"
#include "dis_file.h"
#include "log.h"
#include "runtime.h"
#include "sbl.h"
#include "signature.h"

namespace dis::vm {

Module read_module_file(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.size() > 2 && path.compare(path.size() - 2, 2, ".s") == 0) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(Diagnostic{path, 0, 0, -1, "cannot open file"});
    std::stringstream ss;
    ss << in.rdbuf();
    Module m = dis::assembly::assemble(ss.str(), path);
    return m;
  }
  Module m = read_dis_file(path);
  fs::path sbl = fs::path(path).replace_extension(".sbl");
  std::error_code ec;
  if (fs::exists(sbl, ec)) {
    try {
      apply_sbl(m, read_sbl_file(sbl.string()));
    } catch (const InputError&) {
      // A stale or malformed .sbl only costs source positions.
      m.positions.clear();
      m.source_files.clear();
    }
  }
  return m;
}

Module Runtime::read_module(const std::string& path) {
  if (path.size() > 2 && path.compare(path.size() - 2, 2, ".b") == 0) {
    if (!opts.compile)
      throw InputError(Diagnostic{path, 0, 0, -1, "no Limbo compiler in this program"});
    return opts.compile(path);
  }
  // `load "x.dis"` of a module shipped as Limbo source: with a compiler, a
  // missing x.dis is compiled from the x.b beside it.
  if (opts.compile && path.size() > 4 && path.compare(path.size() - 4, 4, ".dis") == 0) {
    std::error_code ec;
    std::string src = path.substr(0, path.size() - 4) + ".b";
    if (!std::filesystem::exists(path, ec) && std::filesystem::exists(src, ec))
      return opts.compile(src);
  }
  return read_module_file(path);
}

namespace {

// Stores the data section into module data at `mp`.
void build_data(Runtime& vm, Program& p, Ptr mp) {
  Heap& h = vm.heap;
  const Module& m = p.mod;
  struct BaseRec {
    Ptr base;
    std::uint32_t limit;
  };
  std::vector<BaseRec> stack;
  BaseRec cur{mp, static_cast<std::uint32_t>(m.data_size)};
  auto bad = [&](const char* why) { throw VerifyError{m.name + ": data: " + why}; };
  auto at = [&](std::int64_t off, std::int64_t n) -> std::uint8_t* {
    if (off < 0 || off + n > cur.limit) bad("store out of range");
    return h.cage().at(cur.base + static_cast<std::uint32_t>(off));
  };
  for (const DataItem& it : m.data) {
    switch (it.kind) {
      case DataKind::Bytes:
        for (std::size_t i = 0; i < it.values.size(); ++i)
          *at(it.offset + std::int64_t(i), 1) = static_cast<std::uint8_t>(it.values[i]);
        break;
      case DataKind::Words:
        for (std::size_t i = 0; i < it.values.size(); ++i)
          st<std::int32_t>(at(it.offset + 4 * std::int64_t(i), 4),
                           static_cast<std::int32_t>(it.values[i]));
        break;
      case DataKind::Reals:
      case DataKind::Bigs:
        for (std::size_t i = 0; i < it.values.size(); ++i)
          st<std::int64_t>(at(it.offset + 8 * std::int64_t(i), 8), it.values[i]);
        break;
      case DataKind::String: {
        std::uint8_t* slot = at(it.offset, 4);
        Ptr s = str_from_utf8(h, it.text);
        Ptr old = ld<Ptr>(slot);
        st<Ptr>(slot, s);
        h.decref(old);
        break;
      }
      case DataKind::Array: {
        if (it.values.size() < 2) bad("array item");
        std::int64_t t = it.values[0], n = it.values[1];
        if (t < 0 || t >= static_cast<std::int64_t>(p.types.size())) bad("array type");
        if (n < 0 || n > (1 << 24)) bad("array length");
        std::uint8_t* slot = at(it.offset, 4);
        Ptr a = array_new(h, p.types[t], static_cast<std::int32_t>(n));
        slot = at(it.offset, 4);
        Ptr old = ld<Ptr>(slot);
        st<Ptr>(slot, a);
        h.decref(old);
        break;
      }
      case DataKind::SetIndex: {
        if (it.values.empty()) bad("index item");
        if (stack.size() >= 4) bad("index nesting too deep");
        Ptr a = ld<Ptr>(at(it.offset, 4));
        if (a == H || !h.checked_header(a) || h.type(h.header(a)->type).kind != TypeKind::Array)
          bad("index of a non-array");
        ArrayRef r = array_ref(h, a);
        std::int64_t i = it.values[0];
        if (i < 0 || i >= r.len) bad("index out of range");
        std::uint32_t es = h.type(r.elemtype).size;
        stack.push_back(cur);
        cur.base = r.data + static_cast<std::uint32_t>(i) * es;
        cur.limit = static_cast<std::uint32_t>((r.len - i) * es);
        break;
      }
      case DataKind::PopBase:
        if (stack.empty()) bad("pop without index");
        cur = stack.back();
        stack.pop_back();
        break;
    }
  }
}

}  // namespace

Program& Runtime::load_program(Module m, const std::string& path) {
  auto p = std::make_unique<Program>();
  try {
    verify(m);
    p->path = path;
    p->mod = std::move(m);
    decode(*p, heap);
  } catch (const VerifyError& e) {
    log_warn("verifier", "refused {}: {}",
             path.empty() ? std::string_view("<memory>") : std::string_view(path), e.msg);
    throw;
  }
  log_debug("loader", "{}: module {}: {} instructions, {} types, {} bytes of data, {} exports",
            path.empty() ? std::string_view("<memory>") : std::string_view(path), p->mod.name,
            p->mod.code.size(), p->mod.types.size(), p->mod.data_size, p->mod.links.size());
  for (const Link& l : p->mod.links) {
    auto e = std::make_unique<Export>();
    e->name = l.name;
    e->sig = l.sig;
    e->pc = l.pc;
    e->frame_type = l.frame_type >= 0 ? p->types[l.frame_type] : kTypeNone;
    p->exports.push_back(e.get());
    p->export_store.push_back(std::move(e));
  }
  Program& ref = *p;
  std::string key = path.empty() ? "<memory>" + std::to_string(programs.size()) : path;
  programs[key] = std::move(p);
  return ref;
}

std::uint32_t Runtime::new_modlink(Ptr mp) {
  std::uint32_t idx;
  auto fresh = std::make_unique<Modlink>();  // before a free slot is taken
  if (!free_modlinks.empty()) {
    idx = free_modlinks.back();
    free_modlinks.pop_back();
    modlinks[idx] = std::move(fresh);
  } else {
    idx = static_cast<std::uint32_t>(modlinks.size());
    modlinks.push_back(std::move(fresh));
  }
  Modlink& ml = *modlinks[idx];
  ml.live = true;
  ml.mp = mp;
  try {
    ml.obj = heap.alloc(kTypeModule, kModuleSize);
  } catch (...) {
    // No room for the module object: the slot goes back, and the caller
    // still owns its reference to mp.
    ml.live = false;
    ml.mp = H;
    free_modlinks.push_back(idx);
    throw;
  }
  st<Ptr>(cage.at(ml.obj) + kModuleMp, mp);
  st<std::uint32_t>(cage.at(ml.obj) + kModuleIndex, idx);
  return idx;
}

std::uint32_t Runtime::instantiate(Program& p) {
  std::uint32_t mptype = p.types.empty() ? kTypeNone : p.types[0];
  auto size = static_cast<std::uint32_t>(p.mod.data_size);
  Ptr mp = heap.alloc(mptype, size < 8 ? 8 : size);
  if (!p.types.empty()) heap.init_record(cage.at(mp), mptype);
  std::uint32_t idx;
  try {
    build_data(*this, p, mp);
    copy_jump_tables(p, heap, mp);
    idx = new_modlink(mp);
  } catch (...) {
    heap.decref(mp);
    throw;
  }
  modlinks[idx]->prog = &p;
  return idx;
}

std::uint32_t Runtime::instantiate_native(NativeModule& n) {
  std::uint32_t idx = new_modlink();
  modlinks[idx]->native = &n;
  return idx;
}

void Runtime::free_module(std::uint32_t index) {
  if (index >= modlinks.size() || !modlinks[index] || !modlinks[index]->live) return;
  Modlink& ml = *modlinks[index];
  ml.live = false;
  Ptr mp = ml.mp;
  ml.mp = H;
  if (mp != H) heap.decref(mp);
  try {
    free_modlinks.push_back(index);
  } catch (const std::bad_alloc&) {
    // A free cannot fail: without room on the list the slot is not reused.
  }
}

std::uint32_t Runtime::module_of(Ptr p) {
  if (p == H) raise_error("module not loaded");
  BlockHeader* h = heap.checked_header(p);
  if (!h || h->type != kTypeModule) raise_error("module not loaded");
  std::uint32_t idx = ld<std::uint32_t>(cage.at(p) + kModuleIndex);
  if (idx >= modlinks.size() || !modlinks[idx] || !modlinks[idx]->live)
    raise_error("module not loaded");
  return idx;
}

std::string Runtime::host_path(const std::string& dis_path) const {
  if (!opts.root.empty() && !dis_path.empty() && dis_path[0] == '/') return opts.root + dis_path;
  return dis_path;
}

Program* Runtime::find_or_read_program(const std::string& path) {
  std::string hp = host_path(path);
  auto it = programs.find(hp);
  if (it != programs.end()) return it->second.get();
  try {
    Module m = read_module(hp);
    return &load_program(std::move(m), hp);
  } catch (const InputError& e) {
    std::error_code ec;
    // A missing file in Inferno's wording, naming the Dis path, not the host's.
    last_load_error =
        std::filesystem::exists(hp, ec) ? e.what() : "'" + path + "' file does not exist";
  } catch (const VerifyError& e) {
    last_load_error = e.msg;
  }
  log_info("loader", "cannot load {}: {}", hp, last_load_error);
  return nullptr;
}

namespace {

// Why an import does not link: the function and both types, as strings
// when known (a .dis importer or a Dis exporter has only the signature).
std::string link_mismatch(const std::string& modname, const std::string& path, const Import& im,
                          const Export* found) {
  const std::string what = "link typecheck " + modname + "->" + im.name + "(): ";
  if (!found) return what + path + " has no function " + im.name;
  auto type = [](const std::string& t, std::uint32_t sig) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "signature 0x%x", sig);
    return t.empty() ? std::string(buf) : t;
  };
  const std::string provided = found->native ? found->native->type : "";
  return what + "the importer declares " + type(im.type, im.sig) + ", " + path + " provides " +
         type(provided, found->sig);
}

// Fills ml's links from `exports` in the order of the importer's import
// table (all of them when there is none); false, with `error` set, when an
// import is missing or its signature differs.
bool link_imports(Modlink& ml, const Modlink& importer, std::int32_t table,
                  const std::vector<Export*>& exports, const std::string& modname,
                  const std::string& path, std::string& error) {
  if (importer.prog && table >= 0 &&
      table < static_cast<std::int32_t>(importer.prog->mod.imports.size())) {
    for (const Import& im : importer.prog->mod.imports[table]) {
      const Export* found = nullptr;
      for (const Export* e : exports)
        if (e->name == im.name) found = e;
      if (!found || found->sig != im.sig) {
        error = link_mismatch(modname, path, im, found);
        return false;
      }
      ml.links.push_back(found);
    }
  } else {
    for (const Export* e : exports) ml.links.push_back(e);
  }
  return true;
}

}  // namespace

Ptr Runtime::load_module(const std::string& path, std::uint32_t importer_ml, std::int32_t table) {
  // As Inferno's load: why it failed is what %r prints next.
  Ptr r = link_module(path, importer_ml, table);
  if (r == H) errstr = last_load_error;
  return r;
}

Ptr Runtime::link_module(const std::string& path, std::uint32_t importer_ml, std::int32_t table) {
  Modlink& imp = modlink(importer_ml);
  std::uint32_t idx;
  const std::vector<Export*>* exports = nullptr;
  std::vector<Export*> native_exports;
  std::string modname;
  if (path == "$self" && imp.prog) {
    Ptr shared_mp = imp.mp;
    Program* self_prog = imp.prog;
    modname = self_prog->mod.name;  // what can throw comes before the instance
    idx = new_modlink(shared_mp);   // may run out of memory: the count after
    heap.incref(shared_mp);
    modlink(idx).prog = self_prog;
    exports = &self_prog->exports;
  } else if (!path.empty() && path[0] == '$') {
    NativeModule* n = nullptr;
    for (auto& nm : natives)
      if (nm->path == path) n = nm.get();
    if (!n) {
      last_load_error = "no such builtin module " + path;
      log_info("loader", "{}", last_load_error);
      return H;
    }
    log_debug("loader", "{}: builtin module instance", path);
    for (Export& e : n->exports) native_exports.push_back(&e);
    modname = path.substr(1);
    idx = instantiate_native(*n);
    exports = &native_exports;
  } else {
    Program* p = find_or_read_program(path);
    if (!p) return H;
    modname = p->mod.name;
    try {
      idx = instantiate(*p);
    } catch (const VerifyError& e) {
      last_load_error = e.msg;
      return H;
    }
    exports = &p->exports;
  }
  Modlink& ml = modlink(idx);
  try {
    // modlinks may have grown: the importer's reference is taken only now
    if (!link_imports(ml, modlink(importer_ml), table, *exports, modname, path, last_load_error)) {
      log_info("loader", "cannot load {}: {}", path, last_load_error);
      heap.decref(ml.obj);
      return H;
    }
  } catch (...) {
    // Out of host memory while linking: the caller never sees the new
    // instance, so its one reference (and with it the slot) is dropped here.
    heap.decref(ml.obj);
    throw;
  }
  return ml.obj;
}

}  // namespace dis::vm
