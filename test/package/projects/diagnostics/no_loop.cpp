// No annotated loop here: gpu_autopar_target still compiles the rewritten copy,
// which must carry a #line naming this file (GpuAutoparRewrite.cmake adds it).
int main() {
  int unused_here = 1;  // line 4
  return 0;
}
