package sparkversion

import (
	"strings"
	"testing"
)

// checkDecls holds for every parser: whatever the input, a declaration has
// a major.minor and a line inside the file.
func checkDecls(t *testing.T, data string, ds []Declared) {
	t.Helper()
	// A lone CR ends a line too, for YAML and for an editor; CRLF is one.
	lines := strings.Count(strings.ReplaceAll(data, "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(data, "\r\n", "\n"), "\r") + 1
	for _, d := range ds {
		if _, ok := parseRelease(d.Version); !ok || strings.Count(d.Version, ".") != 1 {
			t.Fatalf("bad Version %q in %+v", d.Version, d)
		}
		if d.Line < 1 || d.Line > lines {
			t.Fatalf("line %d outside 1..%d in %+v", d.Line, lines, d)
		}
		if d.Full != "" && !strings.HasPrefix(d.Full, strings.Split(d.Version, ".")[0]) {
			t.Fatalf("Full %q does not start with the major of %q", d.Full, d.Version)
		}
	}
}

func FuzzRequirements(f *testing.F) {
	for _, s := range []string{
		"pyspark==3.5.1\n", "pyspark[sql]==3.5.1 ; python_version>'3.8'\n", "pyspark~=3.5.0\n",
		"pyspark>=3.5,<3.6\n", "pyspark>=3.3\n", "-r base.txt\n# pyspark==1.0\n",
		"pyspark==3.5.1 \\\n  --hash=sha256:abc\n", "pyspark (>=3.5,<3.6)\n", "pyspark===3.5.1\n",
		"pyspark==3.5.*,!=3.5.0\n", "pyspark>3.5.9,<=3.5.9\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkDecls(t, s, ParseRequirements("requirements.txt", []byte(s)))
		// The lines of a setup.cfg declaration count from the file's top,
		// which is two lines above s.
		cfg := "[options]\ninstall_requires =\n" + s
		checkDecls(t, cfg, ParseSetupCfg("setup.cfg", []byte(cfg)))
		checkDecls(t, s, ParseSetupPy("setup.py", []byte(s)))
		checkDecls(t, s, ParseCondaEnv("environment.yml", []byte(s)))
	})
}

func FuzzPyproject(f *testing.F) {
	for _, s := range []string{
		"[project]\ndependencies = [\n  \"pyspark==3.5.1\", # x\n]\n",
		"[tool.poetry.dependencies]\npyspark = {version = \"^3.5.0\", extras = [\"sql\"]}\n",
		"[tool.poetry.dependencies.pyspark]\nversion = \"~3.5\"\n",
		"[packages]\npyspark = \"==3.3.0\"\n",
		"a = \"\"\"x\"\"\"\nb = '''y'''\nc = [[1, 2], {d = 3}]\n",
		"[[tool.x]]\n'q' = \"\\u00e9\"\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkDecls(t, s, ParsePyproject("pyproject.toml", []byte(s)))
		checkDecls(t, s, ParsePipfile("Pipfile", []byte(s)))
	})
}

func FuzzPom(f *testing.F) {
	for _, s := range []string{
		pomHead + "<properties><spark.version>3.5.1</spark.version></properties><dependencies><dependency><groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId><version>${spark.version}</version></dependency></dependencies></project>",
		pomHead + "<dependencies><dependency><groupId>org.apache.spark</groupId><artifactId>spark-core_2.13</artifactId><version>4.0.0</version></dependency></dependencies></project>",
		"<project><dependencies><dependency><version>${}</version></dependency>",
		"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><project/>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkDecls(t, s, ParsePom("pom.xml", []byte(s)))
	})
}

func FuzzSbt(f *testing.F) {
	for _, s := range []string{
		"val sparkVersion = \"3.5.1\"\nlibraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % sparkVersion % Provided\n",
		"sparkVersion := \"2.0.2\"\nlibraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % sparkVersion.value\n",
		"object Versions { val Spark = \"3.5.5\" }\nSeq(\"org.apache.spark\" % s\"spark-sql_2.12\" % Versions.Spark)\n",
		"/* unterminated", "\"unterminated\n", "'a' '\\n' 'sym \"\"\"x\"\"\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkDecls(t, s, ParseSbt("build.sbt", []byte(s)))
	})
}

func FuzzGradle(f *testing.F) {
	for _, s := range []string{
		"def sparkVersion = '3.4.1'\ndependencies { implementation \"org.apache.spark:spark-sql_2.12:${sparkVersion}\" }\n",
		"dependencies { implementation group: 'org.apache.spark', name: 'spark-sql_2.12', version: '3.5.0' }\n",
		"val sparkVersion by extra(\"3.5.2\")\nextra[\"v\"] = \"1\"\nset(\"w\", \"2\")\n",
		"compile(\"org.apache.spark\", \"spark-core_2.12\", sparkVersion)\n",
		"group", "(\"org.apache.spark\",",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkDecls(t, s, ParseGradle("build.gradle", []byte(s)))
		checkDecls(t, s, ParseGradle("build.gradle.kts", []byte(s)))
	})
}
