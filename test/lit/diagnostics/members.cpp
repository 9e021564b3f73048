// Arrays reached through members (`img.data[i]`, `data[i]` in a method) are
// compared like variables, by their member path; writing a member of the
// enclosing object, or a field of an element another iteration owns, is caught.
// Data reached through a member is mapped like a variable (the loops below that
// are accepted are kernel mode); a member written through `this` keeps the loop
// off a GPU, where `this` points to host memory.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <vector>
struct Image {
  std::vector<float> data;
  int w, h;
};
struct Point {
  float x, y;
};
struct Accumulator {
  std::vector<float> data;
  int count = 0;
  void shift(int n) {
#pragma gpu_autopar for
    for (int i = 1; i < n; ++i)
      data[i] = data[i - 1];
// CHECK: members.cpp:[[@LINE-2]]:5: error: loop-carried dependence on 'data': an element written in one iteration is read in another
// CHECK: members.cpp:[[@LINE-2]]:7: note: write of 'data' here
// CHECK: members.cpp:[[@LINE-3]]:17: note: read of 'data' here
// CHECK: members.cpp:[[@LINE-5]]:5: note: for example, with n = 3, iteration i=1 writes data[1] and iteration i=2 reads it
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i) {
      data[i] = 0;
      ++count;
// CHECK: members.cpp:[[@LINE-1]]:9: error: member 'count' is shared by all iterations and written in the loop; update a local variable in a reduction(...) clause and assign it after the loop
// CHECK: members.cpp:[[@LINE-14]]:7: note: 'count' is declared here
// CHECK: members.cpp:[[@LINE-3]]:9: remark: loop runs on CPU threads only: the body reaches the object 'this' points to through 'count', which stays in host memory
    }
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      data[i] = data[i] * 2;
  }
};

void images(Image &img, Image &out, std::vector<Point> &pts, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    img.data[i] = img.data[i - 1];
// CHECK: members.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'img.data': an element written in one iteration is read in another
// CHECK: members.cpp:[[@LINE-2]]:5: note: write of 'img.data' here
// CHECK: members.cpp:[[@LINE-3]]:19: note: read of 'img.data' here
// CHECK: members.cpp:[[@LINE-5]]:3: note: for example, with n = 3, iteration i=1 writes img.data[1] and iteration i=2 reads it
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    pts[0].x = pts[i].y;
// CHECK: members.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'pts': every iteration writes the same element{{$}}
// CHECK: members.cpp:[[@LINE-2]]:5: note: write of 'pts' here
// CHECK: members.cpp:[[@LINE-4]]:3: note: for example, with n = 2, iterations i=0 and i=1 both write pts[0]
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    img.w = i;
// CHECK: members.cpp:[[@LINE-1]]:5: error: 'img' is declared outside the loop and written in it; it is a reference, so every iteration writes the object it names, which a private(...) copy would not reach; write a local variable of the body instead, or a reduction(...) if it accumulates
// CHECK: members.cpp:[[@LINE-18]]:20: note: 'img' is declared here
// Accepted: own elements, fields of own elements, row-major images sized by members.
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    pts[i].x = pts[i].y;
#pragma gpu_autopar for
  for (int y = 0; y < img.h; ++y)
    for (int x = 0; x < img.w; ++x)
      out.data[y * img.w + x] = img.data[y * img.w + x] + img.data[(y + 1) * img.w + x];
// Two references to images may be one image: their maps are compared.
// CHECK: members.cpp:[[@LINE-2]]:7: remark: 'out.data' and 'img.data' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: members.cpp:[[@LINE-3]]:33: note: read of 'img.data' here
}

// What a kernel cannot do with members: it reaches them through maps of the
// members and copies of numbers, never through the object, which stays in
// host memory. Anything else that reaches the object keeps the loop on CPU
// threads, with a remark at it.
#define AT(k) data[k]
struct Field {
  std::vector<float> data, other;
  float scale;
  int n;
  void through_lambda() {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i) {
      auto get = [&](int k) { return other[k]; };
      data[i] = get(i);
    }
// CHECK: members.cpp:[[@LINE-3]]:38: remark: loop runs on CPU threads only: the body reaches the object 'this' points to through 'other', which stays in host memory
  }
  void in_macro() {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      AT(i) = other[i];
// CHECK: members.cpp:[[@LINE-1]]:7: remark: loop runs on CPU threads only: the body reaches 'AT(i)' through 'data', spelled in a macro, where the rewrite cannot hand the body a map of it
// CHECK: members.cpp:[[@LINE-18]]:15: note: expanded from macro 'AT'
  }
  void forced() {
#pragma gpu_autopar for mode(kernel)
    for (int i = 0; i < n; ++i)
      data[i] = (*this).scale;
// CHECK: members.cpp:[[@LINE-1]]:18: error: mode(kernel) needs a body that can run on a GPU, but it reaches the object 'this' points to through '*this', which stays in host memory
// CHECK: members.cpp:[[@LINE-4]]:30: note: mode clause is here
  }
};
struct Span {
  float *p;
  int n;
};
void whole(Field &f, Span s, const int *idx, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    f.data[i] = f.data.front() + f.scale;
// CHECK: members.cpp:[[@LINE-1]]:17: warning: cannot prove that iterations access distinct elements of 'f': it is read through the reference 'f.data.front()' returns, which the analysis does not follow
// CHECK: members.cpp:[[@LINE-2]]:17: remark: loop runs on CPU threads only: the body uses 'f.data' other than through its elements, which a data map does not copy to a GPU
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    s.p[idx[i]] = i;
// CHECK: members.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 's.p': subscript 'idx[i]' is not affine in the loop variables
// CHECK: members.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body indexes 's.p', a pointer whose length the analysis cannot tell; add 'map(from: s.p[0:n])' with its length to run it on a GPU
  // The clause the remark asks for gives the member its length: a kernel
  // (no remark), the scatter still warned.
#pragma gpu_autopar for map(from: s.p[0:s.n])
  for (int i = 0; i < n; ++i)
    s.p[idx[i]] = i;
// CHECK: members.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 's.p': subscript 'idx[i]' is not affine in the loop variables
  // Members a clause cannot name.
#pragma gpu_autopar for map(to: s.q[0:n])
  for (int i = 0; i < n; ++i)
    s.p[i] = i;
// CHECK: members.cpp:[[@LINE-3]]:33: error: 's.q' in 'map' clause: 'Span' has no data member 'q'
#pragma gpu_autopar for map(to: this->p[0:n])
  for (int i = 0; i < n; ++i)
    s.p[i] = i;
// CHECK: members.cpp:[[@LINE-3]]:33: error: 'this->p' in 'map' clause names a member, which needs the 'this' of a member function
#pragma gpu_autopar data map(to: s.p[0:n])
  {
  }
// CHECK: members.cpp:[[@LINE-3]]:34: error: 's.p' in 'map' clause names a member, which a data directive does not map yet; map a variable (a pointer to its data)
}
