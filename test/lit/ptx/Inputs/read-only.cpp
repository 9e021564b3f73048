// Objects of numbers a loop only reads by value get read_views; anything
// else keeps its view.
#include <vector>

void forces(const float *x, const double *w, float *fx, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    float a = 0;
    for (int j = 0; j < n; ++j)
      a += (x[j] - x[i]) * float(w[j]);
    fx[i] = a;
  }
}

struct Pt {
  float x, y;
};

void others(const std::vector<float> &bound, const std::vector<Pt> &pts, const int *taken, float *__restrict__ out,
            int n) {
#pragma gpu_autopar for map(to: taken[0:n])
  for (int i = 0; i < n; ++i) {
    const float &r = bound[i];
    const int *p = &taken[i];
    out[i] = r + pts[i].x + float(*p);
  }
}
