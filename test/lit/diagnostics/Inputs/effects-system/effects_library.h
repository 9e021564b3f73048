// A library header the program includes with -isystem: its functions are
// followed like the program's own.
#pragma once
extern double library_state;
inline double library_step(double x) {
  library_state += x;
  return library_state;
}
