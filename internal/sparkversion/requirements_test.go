package sparkversion

import "testing"

func TestRequirements(t *testing.T) {
	const f = "requirements.txt"
	runFileCases(t, []fileCase{
		{"exact", f, "pandas==2.2.3\npyspark==3.5.1\n", []want{{"3.5", "3.5.1", 2, "pyspark==3.5.1"}}},
		{"extras", f, "pyspark[sql,pandas_on_spark]==3.5.1\n", []want{{"3.5", "3.5.1", 1, "pyspark[sql,pandas_on_spark]==3.5.1"}}},
		{"compatible release", f, "pyspark~=3.5.0\n", []want{{"3.5", "", 1, "pyspark~=3.5.0"}}},
		{"compatible release two parts spans minors", f, "pyspark~=3.5\n", nil},
		{"range in one minor", f, "pyspark>=3.5,<3.6\n", []want{{"3.5", "", 1, "pyspark>=3.5,<3.6"}}},
		{"range with spaces", f, "pyspark >= 3.5.0, < 3.6.0\n", []want{{"3.5", "", 1, "pyspark >= 3.5.0, < 3.6.0"}}},
		{"range inclusive top", f, "pyspark>=3.5.0,<=3.5.3\n", []want{{"3.5", "", 1, "pyspark>=3.5.0,<=3.5.3"}}},
		{"range across minors", f, "pyspark>=3.4,<3.6\n", nil},
		{"range to next major", f, "pyspark>=3.5,<4\n", nil},
		{"lower bound alone", f, "pyspark>=3.3\n", nil},
		{"upper bound alone", f, "pyspark<4\n", nil},
		{"empty range", f, "pyspark>=3.6,<3.6\n", nil},
		{"unsatisfiable pins", f, "pyspark==3.5.1,==3.4.1\n", nil},
		{"pin with exclusion", f, "pyspark==3.5.1,!=3.5.0\n", []want{{"3.5", "3.5.1", 1, "pyspark==3.5.1,!=3.5.0"}}},
		{"wildcard", f, "pyspark==3.5.*\n", []want{{"3.5", "", 1, "pyspark==3.5.*"}}},
		{"major wildcard", f, "pyspark==3.*\n", nil},
		{"unpinned", f, "pyspark\n", nil},
		{"pre-release pin", f, "pyspark==4.0.0.dev2\n", []want{{"4.0", "4.0.0.dev2", 1, "pyspark==4.0.0.dev2"}}},
		{"padded numbers", f, "pyspark==003.05.01\n", []want{{"3.5", "3.5.1", 1, "pyspark==003.05.01"}}},
		{"rc pin", f, "pyspark==4.1.0rc1\n", []want{{"4.1", "4.1.0rc1", 1, "pyspark==4.1.0rc1"}}},
		{"trailing comment", f, "pyspark==3.5.1          # Spark 3.5, matches the cluster\n", []want{{"3.5", "3.5.1", 1, "pyspark==3.5.1"}}},
		{"commented out", f, "# pyspark==3.4.0\n#pyspark==3.4.0\n", nil},
		{"include and options", f, "-r base.txt\n-c constraints.txt\n--index-url https://x/simple\n-e git+https://x/pyspark.git#egg=pyspark\n", nil},
		{"marker", f, "pyspark==3.5.1 ; python_version >= \"3.8\"\n", []want{{"3.5", "3.5.1", 1, "pyspark==3.5.1 ; python_version >= \"3.8\""}}},
		{"hashes continued", f, "pyspark==3.5.1 \\\n    --hash=sha256:aaa \\\n    --hash=sha256:bbb\nnumpy==1.26.4\n", []want{{"3.5", "3.5.1", 1, "pyspark==3.5.1"}}},
		{"direct reference", f, "pyspark @ https://example.com/pyspark-3.5.1.tar.gz\n", nil},
		{"env placeholder", f, "pyspark==${SPARK_VERSION}\n", nil},
		{"case and separators", f, "PySpark==3.4.1\n", []want{{"3.4", "3.4.1", 1, "PySpark==3.4.1"}}},
		{"connect client", f, "pyspark-client==4.0.0\n", []want{{"4.0", "4.0.0", 1, "pyspark-client==4.0.0"}}},
		{"similar name", f, "pyspark-stubs==3.0.0\npyspark_test==0.2\nsparkmeasure==0.24\n", nil},
		{"epoch refused", f, "pyspark==1!3.5.1\n", nil},
		{"crlf", f, "pyspark==3.3.2\r\n", []want{{"3.3", "3.3.2", 1, "pyspark==3.3.2"}}},
		{"constraints file", "constraints-dev.txt", "pyspark==3.5.2\n", []want{{"3.5", "3.5.2", 1, "pyspark==3.5.2"}}},
		{"requirements dir", "requirements/base.txt", "pyspark==3.5.2\n", []want{{"3.5", "3.5.2", 1, "pyspark==3.5.2"}}},
		{"pip-tools input", "requirements-dev.in", "pyspark~=3.4.1\n", []want{{"3.4", "", 1, "pyspark~=3.4.1"}}},
		{"unrelated txt", "notes.txt", "pyspark==3.5.1\n", nil},
	})
}
