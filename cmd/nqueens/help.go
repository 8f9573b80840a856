package main

import (
	"embed"
	"strings"
	"text/template"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/benchmark"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/boardtext"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/partition"
)

// The commands' long help texts are help/COMMAND.txt, templates of the
// figures below, each taken from the code that sets it.
//
//go:embed help/*.txt
var helpFiles embed.FS

var helpTexts = template.Must(template.New("").Option("missingkey=error").ParseFS(helpFiles, "help/*.txt"))

var helpValues = map[string]any{
	"MaxN": partition.MaxN, "JoinFrom": partition.JoinFrom, "JoinMaxN": partition.JoinMaxN,
	"SolveMaxN": board.MaxSolveN, "BoardMaxN": report.MaxBoardN, "VerifyMaxN": boardtext.MaxN,
	"KnownMaxN": known.MaxN, "BenchVersion": benchmark.Version,
	"JournalSync": nqueens.JournalSync, "ForecastSample": nqueens.ForecastSample,
	"LongWall": report.Plural(int(nqueens.LongWall.Hours()), "hour"),
}

// longHelp is command's long help text (help/command.txt).
func longHelp(command string) string {
	var b strings.Builder
	if err := helpTexts.ExecuteTemplate(&b, command+".txt", helpValues); err != nil {
		panic(err) // every text is rendered by the tests
	}
	return strings.TrimSuffix(b.String(), "\n")
}
