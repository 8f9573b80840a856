/* textbook.c: the textbook n-queens counter used as the speed yardstick in
 * README and docs/benchmarking.md ("textbook C"): recursive
 * bitmask search, mirror halving, the middle column handled separately for odd
 * n. Single-threaded on purpose. Build: gcc -O3 -march=native -o textbook textbook.c
 * Usage: textbook N  -> prints the number of solutions. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long all;

static unsigned long long solve(unsigned long long cols, unsigned long long ld,
                                unsigned long long rd) {
	if (cols == all)
		return 1;
	unsigned long long count = 0;
	unsigned long long poss = ~(cols | ld | rd) & all;
	while (poss) {
		unsigned long long bit = poss & -poss;
		poss -= bit;
		count += solve(cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
	}
	return count;
}

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: textbook N\n");
		return 2;
	}
	int n = atoi(argv[1]);
	if (n < 1 || n > 32) {
		fprintf(stderr, "textbook: N must be 1..32\n");
		return 2;
	}
	all = (n == 64) ? ~0ULL : ((1ULL << n) - 1);
	unsigned long long total = 0;
	for (int c = 0; c < n / 2; c++) {
		unsigned long long bit = 1ULL << c;
		total += 2 * solve(bit, bit << 1, bit >> 1);
	}
	if (n % 2 == 1) {
		unsigned long long bit = 1ULL << (n / 2);
		total += solve(bit, bit << 1, bit >> 1);
	}
	printf("%llu\n", total);
	return 0;
}
