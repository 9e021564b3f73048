// Arrays reached through members (`img.data[i]`, `data[i]` in a method) are
// compared like variables, by their member path; writing a member of the
// enclosing object, or a field of an element another iteration owns, is caught.
// Data reached through a member is not in any data map: such loops run on CPU threads.
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
// CHECK: members.cpp:[[@LINE-5]]:7: remark: loop runs on CPU threads only: the body reaches 'data[i]' through a member, which a data map does not copy to a GPU
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i) {
      data[i] = 0;
      ++count;
// CHECK: members.cpp:[[@LINE-1]]:9: error: member 'count' is shared by all iterations and written in the loop; update a local variable in a reduction(...) clause and assign it after the loop
// CHECK: members.cpp:[[@LINE-15]]:7: note: 'count' is declared here
// CHECK: members.cpp:[[@LINE-4]]:7: remark: loop runs on CPU threads only: the body reaches 'data[i]' through a member, which a data map does not copy to a GPU
    }
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      data[i] = data[i] * 2;
// CHECK: members.cpp:[[@LINE-1]]:7: remark: loop runs on CPU threads only: the body reaches 'data[i]' through a member, which a data map does not copy to a GPU
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
// CHECK: members.cpp:[[@LINE-5]]:5: remark: loop runs on CPU threads only: the body reaches 'img.data[i]' through a member, which a data map does not copy to a GPU
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
// CHECK: members.cpp:[[@LINE-19]]:20: note: 'img' is declared here
// Accepted: own elements, fields of own elements, row-major images sized by members.
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    pts[i].x = pts[i].y;
#pragma gpu_autopar for
  for (int y = 0; y < img.h; ++y)
    for (int x = 0; x < img.w; ++x)
      out.data[y * img.w + x] = img.data[y * img.w + x] + img.data[(y + 1) * img.w + x];
// CHECK: members.cpp:[[@LINE-1]]:7: remark: loop runs on CPU threads only: the body reaches 'out.data[y * img.w + x]' through a member, which a data map does not copy to a GPU
// Two references to images may be one image: their vectors are compared whole.
// CHECK: members.cpp:[[@LINE-3]]:7: remark: 'out.data' and 'img.data' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: members.cpp:[[@LINE-4]]:33: note: read of 'img.data' here
}
