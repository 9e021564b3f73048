int total(int n);  // helper.cpp
int main() { return total(100) == 4950 ? 0 : 1; }
