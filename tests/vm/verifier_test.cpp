// The verifier refuses malformed modules before anything runs, one test per
// rule, with `module: pc N: reason` and status 1.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>

#include "vm.h"

namespace {

using dis::AddrMode;
using dis::Instruction;
using dis::MidMode;
using dis::Module;
using dis::Op;
using dis::Operand;

Operand fp(std::int32_t a) { return {AddrMode::Fp, a, 0}; }
Operand mp(std::int32_t a) { return {AddrMode::Mp, a, 0}; }
Operand imm(std::int32_t a) { return {AddrMode::Imm, a, 0}; }

// A valid module: `movw $1, 40(fp); ret`, MP of 16 bytes, frame of 64.
Module base() {
  Module m;
  m.name = "V";
  m.data_size = 16;
  m.types.push_back({0, 16, {}});
  m.types.push_back({1, 64, {}});
  m.entry_pc = 0;
  m.entry_type = 1;
  Instruction mov;
  mov.op = Op::movw_;
  mov.src = imm(1);
  mov.dst = fp(40);
  Instruction ret;
  ret.op = Op::ret_;
  m.code = {mov, ret};
  return m;
}

struct Outcome {
  int status;
  std::string err;
};

Outcome run(Module m) {
  std::ostringstream out, err;
  dis::vm::Options o;
  o.out = &out;
  o.err = &err;
  dis::vm::VM vm(o);
  int st = vm.run_module(std::move(m), "v.dis", {"v.dis"}).status;
  return {st, err.str()};
}

void expect_refused(const std::function<void(Module&)>& mutate, const std::string& reason) {
  Module m = base();
  mutate(m);
  Outcome r = run(std::move(m));
  EXPECT_EQ(r.status, 1) << reason;
  EXPECT_NE(r.err.find(reason), std::string::npos) << "wanted '" << reason << "', got: " << r.err;
  EXPECT_EQ(r.err.rfind("V:", 0), 0u) << r.err;
}

TEST(Verifier, AcceptsTheBaseModule) {
  Outcome r = run(base());
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(Verifier, InvalidOpcode) {
  expect_refused([](Module& m) { m.code[0].op = static_cast<Op>(200); }, "V: pc 0: invalid opcode");
}

TEST(Verifier, OperandPresence) {
  expect_refused([](Module& m) { m.code[1].src = fp(32); }, "pc 1: source operand mismatch");
  expect_refused([](Module& m) { m.code[0].dst = {}; }, "pc 0: destination operand mismatch");
  expect_refused(
      [](Module& m) {
        m.code[1].mid = {MidMode::Imm, 1};
      },
      "pc 1: unexpected middle operand");
}

TEST(Verifier, ImmediateDestination) {
  expect_refused([](Module& m) { m.code[0].dst = imm(3); }, "pc 0: immediate destination");
}

TEST(Verifier, BranchTargets) {
  expect_refused(
      [](Module& m) {
        m.code[0] = Instruction{Op::jmp_, {}, {}, imm(7)};
      },
      "pc 0: branch target out of range");
  expect_refused(
      [](Module& m) {
        m.code[0] = Instruction{Op::jmp_, {}, {}, fp(32)};
      },
      "pc 0: branch target must be immediate");
}

TEST(Verifier, FrameAndDataOffsets) {
  expect_refused([](Module& m) { m.code[0].dst = fp(64); }, "pc 0: destination frame offset");
  expect_refused([](Module& m) { m.code[0].dst = mp(16); }, "pc 0: destination module data offset");
  expect_refused(
      [](Module& m) {
        m.code[0].dst = {AddrMode::IndFp, 62, 0};
      },
      "pc 0: destination frame offset");
  expect_refused([](Module& m) { m.code[0].dst = fp(42); }, "pc 0: destination misaligned");
}

TEST(Verifier, TypeIndices) {
  expect_refused(
      [](Module& m) {
        m.code[0] = Instruction{Op::frame_, {}, imm(9), fp(40)};
      },
      "pc 0: source type index out of range");
  expect_refused(
      [](Module& m) {
        m.code[0] = Instruction{Op::newa_, {MidMode::Imm, 5}, imm(3), fp(40)};
      },
      "pc 0: middle type index out of range");
}

TEST(Verifier, IndexFamilyNeedsWritableMiddle) {
  expect_refused(
      [](Module& m) {
        m.code[0] = Instruction{Op::indw_, {MidMode::Imm, 4}, fp(32), imm(0)};
      },
      "pc 0: immediate middle operand is written");
}

TEST(Verifier, JumpTables) {
  expect_refused(
      [](Module& m) {
        m.code[0] = Instruction{Op::case_, {}, fp(32), fp(36)};
      },
      "pc 0: jump table must be module data");
  expect_refused(
      [](Module& m) {
        m.code[0] = Instruction{Op::case_, {}, fp(32), mp(12)};
      },
      "pc 0: jump table out of range");
  // A table whose entry jumps outside the code: n=1, [0,1)->9, default 0.
  Module m = base();
  m.data_size = 32;
  m.types[0].size = 32;
  m.data.push_back({dis::DataKind::Words, 0, {1, 0, 1, 9, 0}, ""});
  m.code[0] = Instruction{Op::case_, {}, fp(32), mp(0)};
  Outcome r = run(std::move(m));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("jump table target out of range"), std::string::npos) << r.err;
}

TEST(Verifier, EntryLinksAndHandlers) {
  expect_refused([](Module& m) { m.entry_pc = 5; }, "entry pc out of range");
  expect_refused([](Module& m) { m.entry_type = 7; }, "entry type out of range");
  expect_refused([](Module& m) { m.links.push_back({"f", 9, 1, 0}); }, "link f: pc out of range");
  expect_refused(
      [](Module& m) {
        dis::Handler h;
        h.pc1 = 0;
        h.pc2 = 5;
        h.offset = 32;
        m.handlers.push_back(h);
      },
      "handler range out of range");
  expect_refused(
      [](Module& m) {
        dis::Handler h;
        h.pc1 = 0;
        h.pc2 = 1;
        h.offset = 64;
        m.handlers.push_back(h);
      },
      "handler frame offset out of range");
}

TEST(Verifier, DataSizeMustMatchTypeZero) {
  expect_refused([](Module& m) { m.types[0].size = 8; }, "type 0 size differs");
}

}  // namespace
