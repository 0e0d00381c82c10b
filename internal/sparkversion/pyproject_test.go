package sparkversion

import "testing"

func TestPyproject(t *testing.T) {
	const f = "pyproject.toml"
	runFileCases(t, []fileCase{
		{"pep621 multiline", f, `[project]
name = "jobs"
dependencies = [
    "pandas>=2",
    "pyspark[connect]==3.5.1",  # cluster is 3.5
]
`, []want{{"3.5", "3.5.1", 5, "pyspark[connect]==3.5.1"}}},
		{"pep621 one line", f, "[project]\ndependencies = ['pyspark>=3.5,<3.6', \"numpy\"]\n", []want{{"3.5", "", 2, "pyspark>=3.5,<3.6"}}},
		{"pep621 parenthesised (poetry 2)", f, "[project]\ndependencies = [\n  \"pyspark (>=4.0.0,<4.1.0)\",\n]\n", []want{{"4.0", "", 3, "pyspark (>=4.0.0,<4.1.0)"}}},
		{"pep621 open range", f, "[project]\ndependencies = [\"pyspark>=3.3\"]\n", nil},
		{"optional dependencies", f, "[project.optional-dependencies]\nspark = [\"pyspark==3.4.1\"]\n", []want{{"3.4", "3.4.1", 2, "pyspark==3.4.1"}}},
		{"dependency groups", f, "[dependency-groups]\ntest = [\"pytest\", {include-group = \"lint\"}, \"pyspark==3.5.0\"]\n", []want{{"3.5", "3.5.0", 2, "pyspark==3.5.0"}}},
		{"uv dev deps", f, "[tool.uv]\ndev-dependencies = [\"pyspark==3.5.3\"]\n", []want{{"3.5", "3.5.3", 2, "pyspark==3.5.3"}}},
		{"dotted key at top", f, "project.dependencies = [\"pyspark==3.5.1\"]\n", []want{{"3.5", "3.5.1", 1, "pyspark==3.5.1"}}},
		{"poetry bare", f, "[tool.poetry.dependencies]\npython = \"^3.10\"\npyspark = \"3.5.1\"\n", []want{{"3.5", "3.5.1", 3, `pyspark = "3.5.1"`}}},
		{"poetry caret spans the major", f, "[tool.poetry.dependencies]\npyspark = \"^3.5.1\"\n", nil},
		{"poetry caret table", f, "[tool.poetry.dependencies]\npyspark = {version = \"^3.5.0\", extras = [\"sql\"]}\n", nil},
		{"poetry tilde", f, "[tool.poetry.dependencies]\npyspark = \"~3.5.0\"\n", []want{{"3.5", "", 2, `pyspark = "~3.5.0"`}}},
		{"poetry table exact", f, "[tool.poetry.dependencies]\npyspark = { version = \"3.4.1\", optional = true }\n", []want{{"3.4", "3.4.1", 2, `pyspark = { version = "3.4.1", optional = true }`}}},
		{"poetry group", f, "[tool.poetry.group.dev.dependencies]\npyspark = \"==3.3.2\"\n", []want{{"3.3", "3.3.2", 2, `pyspark = "==3.3.2"`}}},
		{"poetry dev-dependencies", f, "[tool.poetry.dev-dependencies]\npytest-spark = \"^0.6.0\"\npyspark = \"3.2.1\"\n", []want{{"3.2", "3.2.1", 3, `pyspark = "3.2.1"`}}},
		{"poetry subtable", f, "[tool.poetry.dependencies.pyspark]\nversion = \"3.5.2\"\nextras = [\"sql\"]\n", []want{{"3.5", "3.5.2", 2, `version = "3.5.2"`}}},
		{"poetry multiple constraints", f, "[tool.poetry.dependencies]\npyspark = [\n {version = \"3.4.1\", python = \"<3.12\"},\n {version = \"3.5.1\", python = \">=3.12\"},\n]\n", nil},
		{"poetry star", f, "[tool.poetry.dependencies]\npyspark = \"*\"\n", nil},
		{"poetry or", f, "[tool.poetry.dependencies]\npyspark = \"3.4.1 || 3.5.1\"\n", nil},
		{"quoted key", f, "[tool.poetry.dependencies]\n\"pyspark\" = \"3.5.1\"\n", []want{{"3.5", "3.5.1", 2, `"pyspark" = "3.5.1"`}}},
		{"tool config is not a dependency", f, "[tool.hatch.envs.spark34]\ndependencies = [\"pyspark==3.4.1\"]\n[tool.mypy]\nexclude = [\"pyspark==3.1.1\"]\n", nil},
		{"build requires", f, "[build-system]\nrequires = [\"pyspark==3.5.1\"]\n", nil},
		{"malformed file", f, "[project\ndependencies = [\"pyspark==3.5.1\"]\n", nil},
		{"multiline string elsewhere", f, "[tool.x]\ndoc = \"\"\"\n[project]\ndependencies = [\"pyspark==3.1.1\"]\n\"\"\"\n[project]\ndependencies = [\"pyspark==3.5.1\"]\n", []want{{"3.5", "3.5.1", 7, "pyspark==3.5.1"}}},
	})
}

func TestPipfile(t *testing.T) {
	const f = "Pipfile"
	runFileCases(t, []fileCase{
		{"packages", f, "[[source]]\nurl = \"https://pypi.org/simple\"\n\n[packages]\npyspark = \"==3.3.0\" # cannot go to 3.4 yet\nnumpy = \">=1.7\"\n", []want{{"3.3", "3.3.0", 5, `pyspark = "==3.3.0"`}}},
		{"dev packages table", f, "[dev-packages]\npyspark = {version = \"~=3.5.0\", extras = [\"sql\"]}\n", []want{{"3.5", "", 2, `pyspark = {version = "~=3.5.0", extras = ["sql"]}`}}},
		{"star", f, "[packages]\npyspark = \"*\"\n", nil},
		{"bare version is not pipenv syntax", f, "[packages]\npyspark = \"3.5.1\"\n", nil},
		{"requires section", f, "[requires]\npython_version = \"3.11\"\n", nil},
	})
}
