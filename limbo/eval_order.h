// Internal: the order in which operands are evaluated, as Inferno's compiler
// chooses it, so that side effects (calls) happen in the same order.
#pragma once

#include "ast.h"

namespace dis::limbo {

// Whether e calls a function, loads a module or receives (has side effects).
bool has_call(const Expr* e);

// Inferno's Sethi-Ullman number of e: 0 for what an instruction addresses
// directly (names, constants, fields of a name), else the temporaries its
// evaluation needs (at least 1).
int su_temps(const Expr* e);

// Arithmetic computes the operand needing more temporaries first, the left
// on a tie; a comparison (Inferno's bcom) takes the right on a tie.
enum class Order { Arith, Compare };

// Whether the right operand of a binary operator is computed before the left.
bool right_first(const Expr* left, const Expr* right, Order order = Order::Arith);

}  // namespace dis::limbo
