module github.com/udfx/udfx

go 1.26.8

require github.com/tree-sitter/go-tree-sitter v0.25.0

require (
	github.com/mattn/go-pointer v0.0.1 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
)
