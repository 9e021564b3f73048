/* The harness's self-test (written for gpu-autopar): a source the report in reports/ did not score the
   tool "Peer" on, so its loop counts in the overall agreement and not in Peer's line. */
void shift(double *a, int n)
{
  int i;
  for (i = 1; i < n; i++)
    a[i] = a[i - 1];
}
