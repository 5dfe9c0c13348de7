// $Keyring's message I/O, as Inferno frames it. getmsg/sendmsg/senderrmsg
// put a 5-byte header before the bytes: "%4.4d\n" with the length, or
// "!%3.3d\n" before an error text, which getmsg turns into the error
// string (%r) and a nil result. The get/put string and bytearray functions
// are for channels that keep message boundaries (one read, one message):
// a leading 0x00 byte marks data and 0xff an error text. Messages are at
// most 4095 bytes; a short read sets "hungup" (end of file) or "input or
// format error".
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "crypto_objects.h"

namespace dis::vm {

namespace {

constexpr std::int32_t kMaxMsg = 4096;
constexpr const char* kFormatError = "input or format error";

// The descriptor argument at 32, or -1 for nil. The file stays open while
// the call holds `keep`.
int fd_arg(Call& c, FileRef& keep) {
  if (c.arg_ptr(32) == H) return -1;
  keep = file_of(c, 32);
  return keep->desc < 0 ? -1 : keep->desc;
}

std::int64_t put(Call& c, int fd, const void* p, std::size_t n) { return c.write_fd(fd, p, n); }

// One read (readn: until n bytes or end of file or error).
std::int64_t get(Call& c, int fd, std::uint8_t* p, std::size_t n, bool readn) {
  if (fd == 1 || fd == 2) c.flush_output();
  std::int64_t total = 0;
  c.blocking([&] {
    do {
      ssize_t r = ::read(fd, p + total, n - static_cast<std::size_t>(total));
      if (r <= 0) {
        if (total == 0) total = r;
        break;
      }
      total += r;
    } while (readn && static_cast<std::size_t>(total) < n);
  });
  return total;
}

// 5 bytes of header, then the data; the data write's count.
std::int64_t send(Call& c, int fd, const char* header, const void* p, std::size_t n) {
  if (put(c, fd, header, 5) != 5) return -1;
  return put(c, fd, p, n);
}

void sendmsg(Call& c, CryptoState&) {
  FileRef file;
  int fd = fd_arg(c, file);
  std::int32_t n = c.arg_int(40), len = 0;
  std::uint8_t* p = bytes_arg(c, 36, len);
  if (fd < 0 || !p || n < 0) return c.ret_int(-1);
  n = std::min(n, len);
  char header[16];
  std::snprintf(header, sizeof header, "%4.4d\n", n);
  c.ret_int(static_cast<std::int32_t>(send(c, fd, header, p, static_cast<std::size_t>(n))));
}

void senderrmsg(Call& c, CryptoState&) {
  FileRef file;
  int fd = fd_arg(c, file);
  if (fd < 0) return c.ret_int(-1);
  std::string s = c.arg_string(36);
  char header[16];
  std::snprintf(header, sizeof header, "!%3.3d\n", static_cast<int>(s.size()));
  c.ret_int(send(c, fd, header, s.data(), s.size()) > 0 ? 0 : -1);
}

void getmsg(Call& c, CryptoState&) {
  FileRef file;
  int fd = fd_arg(c, file);
  if (fd < 0) {
    c.set_error_string("nil fd");
    return c.ret_ptr(H);
  }
  char header[6] = {};
  std::int64_t r = get(c, fd, reinterpret_cast<std::uint8_t*>(header), 5, true);
  std::string body;
  if (r == 5) {
    long len = std::strtol(header + (header[0] == '!' ? 1 : 0), nullptr, 10);
    r = -1;
    if (len >= 0 && len < kMaxMsg) {
      body.resize(static_cast<std::size_t>(len));
      r = get(c, fd, reinterpret_cast<std::uint8_t*>(body.data()), body.size(), true);
      if (r == len) {
        if (header[0] == '!' && len > 0) {
          c.set_error_string(body);
          return c.ret_ptr(H);
        }
        return c.ret_ptr(array_of_bytes(c.heap(), body.data(), body.size()));
      }
    }
  }
  c.set_error_string(r > 0 ? kFormatError : "hungup");
  c.ret_ptr(H);
}

// Writes one message: 0x00 (or 0xff for an error) and at most 4095 bytes.
std::int32_t putbuf(Call& c, int fd, const void* p, std::size_t n, bool error) {
  std::string msg(1, error ? '\xff' : '\0');
  msg.append(static_cast<const char*>(p), std::min<std::size_t>(n, kMaxMsg - 1));
  return static_cast<std::int32_t>(put(c, fd, msg.data(), msg.size()));
}

void putstring(Call& c, CryptoState&) {
  FileRef file;
  int fd = fd_arg(c, file);
  if (fd < 0 || c.arg_ptr(36) == H) return c.ret_int(-1);
  std::string s = c.arg_string(36);
  c.ret_int(putbuf(c, fd, s.data(), s.size(), false));
}
void puterror(Call& c, CryptoState&) {
  FileRef file;
  int fd = fd_arg(c, file);
  if (fd < 0 || c.arg_ptr(36) == H) return c.ret_int(-1);
  std::string s = c.arg_string(36);
  c.ret_int(putbuf(c, fd, s.data(), s.size(), true));
}
void putbytearray(Call& c, CryptoState&) {
  FileRef file;
  int fd = fd_arg(c, file);
  std::int32_t n = c.arg_int(40), len = 0;
  std::uint8_t* p = bytes_arg(c, 36, len);
  if (fd < 0 || !p || n < 0) return c.ret_int(-1);
  c.ret_int(putbuf(c, fd, p, static_cast<std::size_t>(std::min(n, len)), false));
}

// One message: its data, or false with the error text (64 bytes at most).
bool getbuf(Call& c, int fd, std::string& data, std::string& err) {
  std::string buf(kMaxMsg, '\0');
  std::int64_t n = get(c, fd, reinterpret_cast<std::uint8_t*>(buf.data()), buf.size(), false);
  if (n <= 0) {
    err = "hungup";
    return false;
  }
  buf.resize(static_cast<std::size_t>(n));
  if (buf[0] == '\0') {
    data = buf.substr(1);
    return true;
  }
  // Anything else is garbled traffic, as when both ends' keys differ.
  err = buf[0] != '\xff' ? "failure" : n < 2 ? "unknown" : buf.substr(1, 63);
  return false;
}

// getstring and getbytearray: (data, nil) or (nil, error).
template <bool Bytes>
void get_message(Call& c, CryptoState&) {
  c.ret_ptr(H, 0);
  c.ret_ptr(H, 4);
  FileRef file;
  int fd = fd_arg(c, file);
  if (fd < 0) return;
  std::string data, err;
  if (!getbuf(c, fd, data, err))
    c.ret_ptr(c.new_string(err), 4);
  else if (Bytes)
    c.ret_ptr(array_of_bytes(c.heap(), data.data(), data.size()), 0);
  else
    c.ret_ptr(c.new_string(data), 0);
}

}  // namespace

void add_message_functions(Impls& impls, const std::shared_ptr<CryptoState>& s) {
  add_crypto_functions(impls, s, "$Keyring",
                       {
                           {"sendmsg", sendmsg},
                           {"senderrmsg", senderrmsg},
                           {"getmsg", getmsg},
                           {"putstring", putstring},
                           {"puterror", puterror},
                           {"putbytearray", putbytearray},
                           {"getstring", get_message<false>},
                           {"getbytearray", get_message<true>},
                       });
}

}  // namespace dis::vm
