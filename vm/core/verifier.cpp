// The verifier: every rule a module must satisfy before it runs. A refusal
// names the module, the pc and the reason.
#include <algorithm>
#include <string>

#include "decode.h"
#include "runtime.h"

namespace dis::vm {
namespace {

int width(OperandKind k) {
  switch (k) {
    case OperandKind::B:
    case OperandKind::M:
      return 1;
    case OperandKind::H:
      return 2;
    case OperandKind::L:
    case OperandKind::F:
      return 8;
    default:
      return 4;
  }
}

bool is_written_dst(Op op) {
  switch (op) {
    case Op::send_:
    case Op::mcall_:
    case Op::mspawn_:
    case Op::indx_:
    case Op::indw_:
    case Op::indf_:
    case Op::indb_:
    case Op::indl_:
    case Op::tcmp_:
      return false;
    default:
      return true;
  }
}

bool is_ind_family(Op op) {
  return op == Op::indx_ || op == Op::indw_ || op == Op::indf_ || op == Op::indb_ ||
         op == Op::indl_;
}

struct Checker {
  const Module& m;
  std::int32_t pc = 0;
  std::int64_t max_frame = 0;

  [[noreturn]] void fail(const std::string& why) const {
    throw VerifyError{m.name + ": pc " + std::to_string(pc) + ": " + why};
  }

  void check_offset(AddrMode mode, std::int64_t a, std::int64_t b, int w, const char* which) {
    (void)b;
    switch (mode) {
      case AddrMode::Fp:
        if (a < 0 || a + w > max_frame) fail(std::string(which) + " frame offset out of range");
        break;
      case AddrMode::Mp:
        if (a < 0 || a + w > m.data_size)
          fail(std::string(which) + " module data offset out of range");
        break;
      case AddrMode::IndFp:
        if (a < 0 || a + 4 > max_frame || a % 4)
          fail(std::string(which) + " frame offset out of range");
        break;
      case AddrMode::IndMp:
        if (a < 0 || a + 4 > m.data_size || a % 4)
          fail(std::string(which) + " module data offset out of range");
        break;
      default:
        break;
    }
    if ((mode == AddrMode::Fp || mode == AddrMode::Mp) && w == 4 && a % 4)
      fail(std::string(which) + " misaligned operand");
  }

  void check_type_imm(const Operand& o, const char* which) {
    if (o.mode != AddrMode::Imm) fail(std::string(which) + " type must be immediate");
    if (o.a < 0 || o.a >= static_cast<std::int64_t>(m.types.size()))
      fail(std::string(which) + " type index out of range");
  }

  void check_table(const Instruction& in) {
    if (in.dst.mode != AddrMode::Mp) fail("jump table must be module data");
    std::int64_t d = in.dst.a, n = 0;
    auto word = [&](std::int64_t off) -> std::int64_t {
      // Jump tables are in the data section; their values are checked when
      // they are copied (copy_jump_tables). Here only the extent is known.
      (void)off;
      return 0;
    };
    (void)word;
    (void)n;
    if (in.op == Op::goto_) {
      if (d < 4 || d > m.data_size) fail("jump table out of range");
    } else if (d < 0 || d + 8 > m.data_size) {
      fail("jump table out of range");
    }
  }
};

}  // namespace

void verify(const Module& m) {
  Checker c{m};
  std::int64_t ncode = static_cast<std::int64_t>(m.code.size());
  for (std::size_t i = 0; i < m.types.size(); ++i) {
    const TypeDesc& t = m.types[i];
    if (t.size < 0) throw VerifyError{m.name + ": type " + std::to_string(i) + ": negative size"};
    if (i > 0 || m.types.size() == 1) c.max_frame = std::max<std::int64_t>(c.max_frame, t.size);
  }
  if (!m.types.empty() && m.data_size != 0 && m.types[0].size != m.data_size)
    throw VerifyError{m.name + ": type 0 size differs from module data size"};
  if (m.data_size < 0) throw VerifyError{m.name + ": negative module data size"};

  for (c.pc = 0; c.pc < ncode; ++c.pc) {
    const Instruction& in = m.code[c.pc];
    if (!valid_opcode(static_cast<unsigned>(in.op))) c.fail("invalid opcode");
    const OpInfo& info = op_info(in.op);
    // Presence.
    if (has_src(in.op) != (in.src.mode != AddrMode::None)) c.fail("source operand mismatch");
    if (has_dst(in.op) != (in.dst.mode != AddrMode::None)) c.fail("destination operand mismatch");
    if (!mid_allowed(in.op) && in.mid.mode != MidMode::None) c.fail("unexpected middle operand");
    if (mid_allowed(in.op) && !mid_optional(in.op) && in.mid.mode == MidMode::None)
      c.fail("missing middle operand");
    if (static_cast<unsigned>(in.src.mode) > 5 || static_cast<unsigned>(in.dst.mode) > 5)
      c.fail("invalid address mode");
    // Source.
    if (has_src(in.op)) {
      // `send $v, c` is what Limbo writes for a constant; other block
      // operands (copies of n bytes) may not read the constant area.
      if (in.src.mode == AddrMode::Imm && info.src == OperandKind::M && in.op != Op::send_ &&
          in.op != Op::lea_)
        c.fail("immediate source where memory is required");
      c.check_offset(in.src.mode, in.src.a, in.src.b, width(info.src), "source");
    }
    // Middle.
    if (in.mid.mode != MidMode::None) {
      int w = width(info.mid == OperandKind::O ? OperandKind::W : info.mid);
      if (is_ind_family(in.op) && in.mid.mode == MidMode::Imm)
        c.fail("immediate middle operand is written");
      if (in.mid.mode == MidMode::Fp) c.check_offset(AddrMode::Fp, in.mid.a, 0, w, "middle");
      if (in.mid.mode == MidMode::Mp) c.check_offset(AddrMode::Mp, in.mid.a, 0, w, "middle");
    } else if (is_ind_family(in.op)) {
      c.fail("missing middle operand");
    }
    // Destination.
    if (has_dst(in.op)) {
      switch (info.dst) {
        case OperandKind::T:
          if (in.dst.mode != AddrMode::Imm) c.fail("branch target must be immediate");
          if (in.dst.a < 0 || in.dst.a >= ncode) c.fail("branch target out of range");
          break;
        case OperandKind::J:
          c.check_table(in);
          break;
        default:
          if (in.dst.mode == AddrMode::Imm && is_written_dst(in.op))
            c.fail("immediate destination");
          if (in.dst.mode == AddrMode::Imm && info.dst == OperandKind::M)
            c.fail("immediate destination");
          c.check_offset(in.dst.mode, in.dst.a, in.dst.b, width(info.dst), "destination");
      }
    }
    // A middle defaulting to a written destination must not be immediate.
    if (in.mid.mode == MidMode::None && mid_allowed(in.op) && info.mid == info.dst &&
        in.dst.mode == AddrMode::Imm && info.dst != OperandKind::T)
      c.fail("immediate destination");
    // Type operands.
    switch (type_operand(in.op)) {
      case TypeOperand::Src:
        c.check_type_imm(in.src, "source");
        break;
      case TypeOperand::Mid:
        if (in.mid.mode != MidMode::Imm) c.fail("middle type must be immediate");
        if (in.mid.a < 0 || in.mid.a >= static_cast<std::int64_t>(m.types.size()))
          c.fail("middle type index out of range");
        break;
      case TypeOperand::None:
        break;
    }
  }
  c.pc = 0;
  if (m.entry_pc != -1 && (m.entry_pc < 0 || m.entry_pc >= ncode))
    throw VerifyError{m.name + ": entry pc out of range"};
  if (m.entry_type != -1 &&
      (m.entry_type < 0 || m.entry_type >= static_cast<std::int32_t>(m.types.size())))
    throw VerifyError{m.name + ": entry type out of range"};
  for (const Link& l : m.links) {
    if (l.pc == -1 && l.frame_type == -1) continue;
    if (l.pc < 0 || l.pc >= ncode)
      throw VerifyError{m.name + ": link " + l.name + ": pc out of range"};
    if (l.frame_type < 0 || l.frame_type >= static_cast<std::int32_t>(m.types.size()))
      throw VerifyError{m.name + ": link " + l.name + ": type out of range"};
  }
  for (const Handler& h : m.handlers) {
    if (h.pc1 < 0 || h.pc2 > ncode || h.pc1 > h.pc2)
      throw VerifyError{m.name + ": handler range out of range"};
    if (h.offset < 0 || h.offset + 4 > c.max_frame)
      throw VerifyError{m.name + ": handler frame offset out of range"};
    if (h.type != -1 && (h.type < 0 || h.type >= static_cast<std::int32_t>(m.types.size())))
      throw VerifyError{m.name + ": handler type out of range"};
    for (const HandlerCase& hc : h.cases)
      if (hc.pc < 0 || hc.pc >= ncode) throw VerifyError{m.name + ": handler pc out of range"};
    if (h.wildcard_pc != -1 && (h.wildcard_pc < 0 || h.wildcard_pc >= ncode))
      throw VerifyError{m.name + ": handler pc out of range"};
  }
}

}  // namespace dis::vm
