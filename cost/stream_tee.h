// An output stream that writes through to another and keeps the first
// `keep` bytes it was given: cost shows the program's diagnostics as they
// come and still finds where a failing run stopped (the VM writes
// "file:line: message").
#pragma once

#include <algorithm>
#include <ostream>
#include <streambuf>
#include <string>

namespace dis::cost {

class TeeStream : public std::ostream {
 public:
  TeeStream(std::ostream& to, std::size_t keep) : std::ostream(&buf_), buf_(to.rdbuf(), keep) {}
  const std::string& kept() const { return buf_.kept; }

 private:
  struct Buf : std::streambuf {
    Buf(std::streambuf* out, std::size_t most) : to(out), keep(most) {}
    int_type overflow(int_type c) override {
      if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
      const char ch = traits_type::to_char_type(c);
      return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
      if (kept.size() < keep)
        kept.append(s, std::min(static_cast<std::size_t>(n), keep - kept.size()));
      return to->sputn(s, n);
    }
    int sync() override { return to->pubsync(); }
    std::streambuf* to;
    std::size_t keep;
    std::string kept;
  };
  Buf buf_;
};

// Where the VM said a run failed with `message`: the prefix of the line
// "<where>: <message>" in `diagnostics`, "" when there is none.
std::string failure_position(const std::string& diagnostics, const std::string& message);

}  // namespace dis::cost
