package nqueens

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSurface keeps the root package, the library's one import, one
// screen of 'go doc': at most 65 entries as 'go doc -short' lists them (a
// const or var block is one, a type one, each function one; Cost's four
// parts are four). What only
// the command needs lives in cmd/nqueens or internal/. Its types are its
// own, none an alias of a lower package's (Method, Piece, Square,
// MemoryError and Uint convert at the boundary), so that engine and
// partition can change without changing the library.
func TestSurface(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	require.NoError(t, err)
	files := make([]*ast.File, 0)
	for _, f := range pkgs["nqueens"].Files {
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/nqueens/nqueens")
	require.NoError(t, err)
	entries := len(p.Consts) + len(p.Vars) + len(p.Funcs)
	var names, aliases []string
	for _, ty := range p.Types {
		entries += 1 + len(ty.Consts) + len(ty.Vars) + len(ty.Funcs)
		names = append(names, ty.Name)
		for _, s := range ty.Decl.Specs {
			if ts := s.(*ast.TypeSpec); ts.Name.Name == ty.Name && ts.Assign.IsValid() {
				aliases = append(aliases, ty.Name)
			}
		}
	}
	assert.LessOrEqual(t, entries, 65, "go doc -short lines; types: %v", names)
	assert.Empty(t, aliases, "types that are another package's under a second name")
}

// TestLowerSurface keeps what engine and partition export to what the
// library and the command need: the exported names (constants,
// variables, functions and types, each a name) and methods of each, at
// most as many as the caps: 71 names and 25 methods, about half of the
// 130 names and 51 methods the two once exported. Of the names, 9 are
// aliases that give the internal types the two hold names an importer
// can use (TestLowerSurfaceNameable). The device's wire format, the back
// ends' interfaces and the tuning knobs are internal/backend's; the
// board's rules, task kinds and join geometry internal/board's; the
// counts' arithmetic internal/wide's; test seams are unexported.
func TestLowerSurface(t *testing.T) {
	for _, c := range []struct {
		dir            string
		names, methods int
	}{
		{"engine", 30, 7},
		{"partition", 41, 18},
	} {
		names, methods := exported(t, c.dir)
		assert.LessOrEqual(t, len(names), c.names, "%s's exported names: %v", c.dir, names)
		assert.LessOrEqual(t, len(methods), c.methods, "%s's exported methods: %v", c.dir, methods)
	}
}

// TestLowerSurfaceNameable keeps engine's and partition's exported API
// usable from outside the module: no exported function, method, type or
// exported field names a type of a package under internal/, which an
// importer cannot name. Such a type is given a name of the package's
// own, an alias (the one place the internal name appears); an array's
// length may be an internal constant (it is a number to an importer).
func TestLowerSurfaceNameable(t *testing.T) {
	for _, dir := range []string{"engine", "partition"} {
		assert.Empty(t, internalNames(t, dir), "%s's exported API names internal types", dir)
	}
}

// internalNames lists where the package in dir's exported API names a
// package under internal/ ("file: Decl names pkg.Name"), aliases and array
// lengths aside, tests aside.
func internalNames(t *testing.T, dir string) []string {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	require.NoError(t, err)
	var found []string
	for _, pkg := range pkgs {
		for name, f := range pkg.Files {
			internal := map[string]bool{} // the file's import names of internal packages
			for _, im := range f.Imports {
				path, err := strconv.Unquote(im.Path.Value)
				require.NoError(t, err)
				local := path[strings.LastIndex(path, "/")+1:]
				if im.Name != nil {
					local = im.Name.Name
				}
				internal[local] = strings.Contains(path, "/internal/")
			}
			var visit func(decl string, n ast.Node)
			visit = func(decl string, n ast.Node) {
				ast.Inspect(n, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.SelectorExpr:
						if id, ok := n.X.(*ast.Ident); ok && internal[id.Name] {
							found = append(found, fmt.Sprintf("%s: %s names %s.%s", filepath.Base(name), decl, id.Name, n.Sel.Name))
						}
					case *ast.ArrayType:
						visit(decl, n.Elt)
						return false
					case *ast.StructType: // exported fields only
						for _, fl := range n.Fields.List {
							if len(fl.Names) == 0 || slices.ContainsFunc(fl.Names, (*ast.Ident).IsExported) {
								visit(decl, fl.Type)
							}
						}
						return false
					}
					return true
				})
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Name.IsExported() && (d.Recv == nil || exportedRecv(d.Recv.List[0].Type)) {
						visit(d.Name.Name, d.Type)
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() && !s.Assign.IsValid() {
								visit(s.Name.Name, s.Type)
							}
						case *ast.ValueSpec:
							if s.Type != nil && slices.ContainsFunc(s.Names, (*ast.Ident).IsExported) {
								visit(s.Names[0].Name, s.Type)
							}
						}
					}
				}
			}
		}
	}
	return found
}

// exportedRecv tells whether a method's receiver type is exported.
func exportedRecv(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return true
		}
	}
}

// TestFunctionLength keeps hand-written functions short enough to read:
// one over 80 lines must say why in its doc comment ("(One function:
// …)"), the generators of engine/_gen included; tests aside.
func TestFunctionLength(t *testing.T) {
	const most = 80
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			checked++
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if lines > most {
				assert.Contains(t, fd.Doc.Text(), "(One function", "%s: %s is %d lines, over %d, and its doc does not say why", path, fd.Name.Name, lines, most)
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, checked, 500)
}

// exported lists the package in dir's exported names and methods
// (Type.Method), tests aside.
func exported(t *testing.T, dir string) (names, methods []string) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	for _, pkg := range pkgs {
		p := doc.New(pkg, dir, 0)
		values := func(vs []*doc.Value) {
			for _, v := range vs {
				for _, n := range v.Names {
					if ast.IsExported(n) {
						names = append(names, n)
					}
				}
			}
		}
		values(p.Consts)
		values(p.Vars)
		for _, f := range p.Funcs {
			names = append(names, f.Name)
		}
		for _, ty := range p.Types {
			names = append(names, ty.Name)
			values(ty.Consts)
			values(ty.Vars)
			for _, f := range ty.Funcs {
				names = append(names, f.Name)
			}
			for _, m := range ty.Methods {
				methods = append(methods, ty.Name+"."+m.Name)
			}
		}
	}
	return names, methods
}

// TestTiers keeps the top-level internal/ below the library: no package
// there imports the root package (the command's own helpers, which do,
// live under cmd/nqueens/internal/). Tests outside a package's own may.
func TestTiers(t *testing.T) {
	var checked int
	err := filepath.WalkDir("internal", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			assert.NotEqual(t, `"github.com/nqueens/nqueens"`, imp.Path.Value, "%s imports the library it lies below", path)
			assert.False(t, strings.HasPrefix(imp.Path.Value, `"github.com/nqueens/nqueens/cmd/`), "%s imports the command", path)
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, checked, 10)
}

// as gives options as the option type O of one call, for a test that
// passes the same options to several calls: each must be one.
func as[O any, T any](opts []T) []O {
	out := make([]O, len(opts))
	for i, o := range opts {
		out[i] = any(o).(O)
	}
	return out
}

// TestOptionTypes: each option is of the option types of exactly the
// calls its doc names, so that passing it to another call does not
// compile (Go's assignability is the check; this keeps the sets right).
func TestOptionTypes(t *testing.T) {
	calls := []struct {
		name string
		typ  reflect.Type
	}{
		{"Count", reflect.TypeFor[CountOption]()}, {"CountShards", reflect.TypeFor[ShardsOption]()},
		{"Table", reflect.TypeFor[TableOption]()}, {"Estimate", reflect.TypeFor[EstimateOption]()},
		{"Solve, List", reflect.TypeFor[BoardOption]()}, {"Verify", reflect.TypeFor[VerifyOption]()},
		{"Audit", reflect.TypeFor[AuditOption]()},
	}
	counting := []string{"Count", "CountShards", "Table", "Estimate"}
	for _, tc := range []struct {
		name  string
		opt   any
		calls []string
	}{
		{"WithMethod", WithMethod(Sym), append(counting, "Solve, List")},
		{"WithWorkers", WithWorkers(1), append(counting, "Audit")},
		{"WithMemory", WithMemory(1 << 30), append(counting, "Audit")},
		{"WithPiece", WithPiece(King), append(counting, "Solve, List", "Verify")},
		{"WithTorus", WithTorus(), append(counting, "Solve, List", "Verify")},
		{"WithPlaced", WithPlaced(), []string{"Count", "CountShards", "Estimate", "Solve, List"}},
		{"WithProgress", WithProgress(nil), []string{"Count", "CountShards", "Table"}},
		{"WithGrace", WithGrace(0), []string{"Count", "CountShards", "Table"}},
		{"WithStopNow", WithStopNow(nil), []string{"Count", "CountShards", "Table"}},
		{"WithDevice", WithDevice("cpu"), []string{"Count", "CountShards", "Table", "Estimate", "Audit"}},
		{"WithDeviceTuning", WithDeviceTuning(""), []string{"Count", "CountShards", "Table", "Estimate", "Audit"}},
		{"WithCheck", WithCheck(), []string{"Count", "Table"}},
		{"WithShard", WithShard(0, 1, nil), []string{"Count", "Estimate"}},
		{"WithJournalFile", WithJournalFile("j"), []string{"Count"}},
		{"WithShardFile", WithShardFile(0, 1, "r"), []string{"Count"}},
		{"WithSample", WithSample(0), []string{"Estimate"}},
	} {
		for _, call := range calls {
			assert.Equal(t, slices.Contains(tc.calls, call.name), reflect.TypeOf(tc.opt).Implements(call.typ), "%s for %s", tc.name, call.name)
		}
	}
}
