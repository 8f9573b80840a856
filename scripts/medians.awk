# medians.awk: summarise a scaling CSV from scripts/scaling.sh as a Markdown
# table: median seconds per (n, method, workers), speedup over one worker and
# parallel efficiency. Usage: awk -F, -f scripts/medians.awk FILE.csv
NR > 1 {
	k = $1 "," $2 "," $3
	if (!(k in cnt)) order[++nk] = k
	v[k, ++cnt[k]] = $5
}
function median(k,   i, j, t, m, a) {
	m = cnt[k]
	for (i = 1; i <= m; i++) a[i] = v[k, i]
	for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
END {
	print "| n | method | workers | runs | median s | speedup | efficiency |"
	print "|---|---|---|---|---|---|---|"
	for (i = 1; i <= nk; i++) {
		k = order[i]; split(k, f, ",")
		med[k] = median(k)
		one = med[f[1] "," f[2] ",1"]
		printf "| %s | %s | %s | %d | %.3f | %.2f | %.0f%% |\n", f[1], f[2], f[3], cnt[k], med[k], one / med[k], 100 * one / med[k] / f[3]
	}
}
