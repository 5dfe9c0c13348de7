// The embedding layer's one exception (embed.h): a Limbo exception that
// ended a run or a call, a compile error, a refused module, a type mismatch.
#pragma once

#include <stdexcept>
#include <string>

namespace dis::embed {

class Error : public std::runtime_error {
 public:
  // what() is "where: message" ("prog.b:12: zero divide"), or the message
  // alone when there is no position (a compile error carries its own).
  Error(std::string message, std::string where = {});
  const std::string& message() const { return message_; }  // the Limbo exception's text
  const std::string& where() const { return where_; }      // "prog.b:12", or ""

 private:
  std::string message_;
  std::string where_;
};

}  // namespace dis::embed
