// Limbo types as the compiler sees them: kinds, 32-bit Dis layout (sizes,
// alignment, pointer maps) and the canonical signature strings of
// DIS-FACTS.md section 11 (hashed by dis::type_sig).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dis::limbo {

struct Type;
struct AdtInfo;
struct ModInfo;
struct Decl;
struct Expr;

enum class TK : std::uint8_t {
  None,  // no value (function without result)
  Int,
  Big,
  Byte,
  Real,
  String,
  Nil,  // the type of `nil` before it meets a pointer type
  Ref,
  Array,
  List,
  Chan,
  Tuple,
  Adt,
  Pick,  // Pick: one variant `Adt.Tag` of a pick adt
  Module,
  Fn,
  Poly,   // a type parameter: one pointer word holding any reference type
  Fixed,  // a fixed-point type: an int word x standing for x * fx_unit
  Error,  // after a reported error: compatible with everything
};

struct FnParam {
  std::string name;
  Type* type = nullptr;
  bool self = false;
};

struct Type {
  TK k = TK::None;
  Type* elem = nullptr;         // Ref/Array/List/Chan element; Fn result
  std::vector<Type*> elems;     // Tuple
  AdtInfo* adt = nullptr;       // Adt, Pick
  int tag = -1;                 // Pick: variant index
  ModInfo* mod = nullptr;       // Module
  std::vector<FnParam> params;  // Fn
  bool varargs = false;         // Fn
  std::string name;             // Poly: the parameter's name
  std::vector<FnParam> cfuncs;  // Poly: the functions its `for` clause requires
  std::vector<Type*> tparams;   // Fn: its own type parameters (Poly types)
  std::vector<Type*> targs;     // Adt, Pick: an instance's type arguments (empty: none given)
  // Fn: the exceptions its raises clause names (not part of same_type).
  std::vector<std::string> raises;
  // Fixed: the declared scale and maximum absolute value (2^31-1 scales when
  // not given), and the unit one int step stands for: the scale divided by
  // the largest power of two that keeps the maximum within 31 bits.
  double fx_scale = 0, fx_max = 0, fx_unit = 0;
};

struct Field {
  std::string name;
  Type* type = nullptr;
  bool cyclic = false;
  std::int32_t offset = 0;
};

struct FuncInfo;

struct Variant {
  std::vector<std::string> tags;  // all tags sharing these fields
  std::vector<Field> fields;      // own fields (offsets after common fields)
  std::int32_t size = 0;
  std::int32_t desc = -1;  // type descriptor for `ref Adt.Tag(...)`, per module
};

struct AdtInfo {
  std::string name;
  ModInfo* owner = nullptr;   // module declaring it (null: the implementation file)
  std::vector<Field> fields;  // common fields (after the tag word for pick adts)
  bool is_pick = false;
  std::vector<std::string> tags;  // pick tags in declaration order
  std::vector<int> tag_variant;   // tag index -> variant index
  std::vector<Variant> variants;
  std::map<std::string, FuncInfo*> funcs;
  std::map<std::string, Type*> func_types;  // declared member function types
  std::map<std::string, std::int64_t> cons;
  std::vector<Type*> tparams;  // `adt[T, U]`: its type parameters (Poly types)
  std::int32_t size = 0, align = 1;
  std::int32_t desc = -1;  // heap descriptor for `ref Adt(...)`
  bool laid_out = false;
  Type* type = nullptr;        // the Adt type
  const Decl* decl = nullptr;  // for .sbl positions
};

struct ModMember {
  enum Kind { Func, Var, Con, TypeName, AdtCon };
  Kind kind = Func;
  const Expr* value = nullptr;  // AdtCon: `Adt(...)`, built where it is used
  Type* type = nullptr;
  std::int64_t ival = 0;
  double rval = 0;
  std::string sval;
  TK con_kind = TK::Int;
};

struct ModInfo {
  std::string name;
  std::vector<std::string> order;            // declaration order of members
  std::map<std::string, ModMember> members;  // functions, vars, cons, types (adt funcs as Adt.fn)
  Type* type = nullptr;
  const Decl* decl = nullptr;  // for .sbl positions
};

// Layout of a type in 32-bit Dis: size, alignment, and the byte offsets of
// the pointer words it contains.
std::int32_t type_size(const Type* t);
std::int32_t type_align(const Type* t);
void pointer_offsets(const Type* t, std::int32_t base, std::vector<std::int32_t>& out);
bool is_pointer(const Type* t);  // one pointer word (string, ref, array, list, chan, module, fn)
bool has_pointers(const Type* t);
void layout_adt(AdtInfo& a);
// The members of a tuple or of a non-pick adt's value: offset and type each.
std::vector<std::pair<std::int32_t, Type*>> value_slots(const Type* t);

// A descriptor pointer map from pointer offsets (bit 0x80>>i of byte j marks
// the word at 4*(8j+i)), trailing zero bytes dropped.
std::vector<std::uint8_t> make_map(const std::vector<std::int32_t>& ptr_offsets);

// Canonical signature string (DIS-FACTS.md 11) of a function or other type.
std::string sig_string(const Type* t);
// A module's data members (its variables) sorted by name, as Inferno's
// compiler lays them out from offset 0 of the implementing module's data.
std::vector<std::pair<std::string, Type*>> module_data(const ModInfo& m);
// The signature string of that data, the `.mp` link's type (DIS-FACTS 11).
std::string data_sig_string(const ModInfo& m);
// The same for a list of variables (`implement A, B;`: their data together).
std::string data_sig_string(const std::vector<std::pair<std::string, Type*>>& vars);
// Module value string `m{...}` members sorted as Inferno's compiler does.
std::string type_name(const Type* t);
std::string fixed_g(double v);  // a real as C's %g prints it (fixed-point scales)  // for messages:
                                // "int", "ref Tree", ...
bool same_type(const Type* a, const Type* b);
// Whether a value of type `from` may be assigned to (or passed as) `to`:
// equal types, adts compared by their data members as the language defines
// (two modules' same-named adts), and a tuple whose members correspond in
// number and type to an adt's data members (`q: Qid = (big 0, 0, 0)`),
// recursively.
bool assignable_type(const Type* to, const Type* from);

}  // namespace dis::limbo
