module github.com/nqueens/nqueens

go 1.26.8

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/rogpeppe/go-internal v1.16.0
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	github.com/stretchr/testify v1.12.1
	golang.org/x/sync v0.25.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
