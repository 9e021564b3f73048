void a(int *__restrict__ v, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) v[i] = 0;
}
int filler0 = 0;
int filler1 = 1;
int filler2 = 2;
int filler3 = 3;
int filler4 = 4;
int filler5 = 5;
int filler6 = 6;
int filler7 = 7;
int filler8 = 8;
int filler9 = 9;
int filler10 = 10;
int filler11 = 11;
int filler12 = 12;
int filler13 = 13;
int filler14 = 14;
int filler15 = 15;
int filler16 = 16;
int filler17 = 17;
int filler18 = 18;
int filler19 = 19;
void b(int *__restrict__ v, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) v[i] = 1;
}
int tail0 = 0;
int tail1 = 1;
int tail2 = 2;
int tail3 = 3;
int tail4 = 4;
