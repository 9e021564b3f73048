#include "header-loop.h"
int first(int *a, int n) {
  zero_in_header(a, n);
  return a[0];
}
