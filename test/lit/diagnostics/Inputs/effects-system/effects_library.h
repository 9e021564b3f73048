// A library header the program includes with -isystem: its functions are
// followed like the program's own. The state is written only on some calls
// (one written on every call is a proven dependence: effects-errors.cpp).
#pragma once
extern double library_state;
inline double library_step(double x) {
  if (x > 0)
    library_state += x;
  return library_state;
}
