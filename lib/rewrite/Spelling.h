// The only code that turns the analysis's values into C++ text: polynomials,
// sections, run-time checks, for the rewritten file and for --report (which lists them
// without the runtime's namespace).
#pragma once

#include "ConditionSpelling.h"
#include "gpuautopar/LoopAnalysis.h"

#include <string>
#include <vector>

namespace gpuautopar {

// The name of a map's object in messages, checks and --report: "x", "g.u",
// "u" (a member in a method).
std::string objectName(const ArrayUse &U);
// C++ that names a member where the loop stands: "g.u", "this->u" (never the
// bare "u": a local of the function may hide the member there); for a member
// the loop's scope cannot name, the local holding `&d.x(0)` (accessorPointers).
std::string memberCode(const MemberPath &P);
// The body's own name for a member it reaches through a map's view or gets a
// copy of, put in place of each spelling: "gpu_autopar_this_u", "gpu_autopar_g_u".
std::string memberBodyName(const MemberPath &P);
// C++ that names a map's object where the loop stands: "x", or memberCode.
std::string objectCode(const ArrayUse &U);

// How runtime names are written: `::gpu_autopar::affine(...)` in the
// rewritten code, `affine(...)` in --report.
enum class RuntimeNames { Qualified, Bare };

// `P` as C++ that evaluates it where the loop stands: "n - 1", "2 * n * m",
// "(n) / 4".
std::string spell(const Polynomial &P);

// `affine(scale, offset, extent)`, or `hull(affine(...), ...)` of the parts of
// a section whose offsets differ by loop-invariant symbols.
std::string spellSection(const AffineSection &S, RuntimeNames N);

// What follows the variable in the map of `U`: the map clause's `(lo), (len)`
// if it gives a section, the section one iteration touches (`affine(...)`, or
// `whole()`), and then the clause's section as written, quoted, for the
// runtime's error when it is only partly present.
std::string spellMapArguments(const LoopAnalysis &A, const ArrayUse &U, RuntimeNames N);

// The loop's run-time checks in the order the rewritten loop makes them (and
// --report lists them): two maps, two whole objects, two objects of which one
// at least has a section, subscripts within their dimensions; each kind in the
// order the analysis found them.
std::vector<const RuntimeCheck *> checksInOrder(const LoopAnalysis &A);

// The checks the rewritten loop makes before it runs, as setters appended to
// its options: `.check_disjoint(w, "out", o, "in")` for two maps,
// `.check_disjoint_objects(::gpu_autopar::object_bytes(out), "out", ...)` for
// two whole objects, with `::gpu_autopar::section_bytes(SPACE, p, affine(...))`
// for a section over the loop (`Space`: the loop's iteration space as the call
// passes it), and `.check_within(cond, "a", "shown")` for subscripts kept
// inside their dimensions.
std::string spellChecks(const LoopAnalysis &A, const std::string &Space);

} // namespace gpuautopar
