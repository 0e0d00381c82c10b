package translate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/internal/typeinfer"
)

// TestPandasRules is TestRules for series-to-series pandas_udfs, whose
// columns are typed, as in real jobs, by the job's dataflow (the
// createDataFrame schema). TestRealShapedCorpus proves the same rules
// against a real pandas_udf in PySpark's worker.
func TestPandasRules(t *testing.T) {
	rows := []struct {
		name, ext, src, sql, declined string
	}{
		{"pandas double arithmetic: NaN out is NULL", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double, t double, n int\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return s / 100.0 + 1\n\ndf.select(f(col(\"s\")))\n",
			"nanvl(((`s` / 100.0D) + 1.0D), CAST(NULL AS DOUBLE))", ""},
		{"pandas comparison is false for NULL and NaN", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double, t double, n int\")\n\n@pandas_udf(\"boolean\")\ndef f(s: pd.Series) -> pd.Series:\n    return s >= 60\n\ndf.select(f(col(\"s\")))\n",
			"CASE WHEN (`s` IS NULL) THEN FALSE ELSE (`s` >= 60.0D AND NOT isnan(`s`)) END", ""},
		{"pandas != is true for NULL", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double, t double, n int\")\n\n@pandas_udf(\"boolean\")\ndef f(s: pd.Series, t: pd.Series) -> pd.Series:\n    return s != t\n\ndf.select(f(col(\"s\"), col(\"t\")))\n",
			"CASE WHEN ((`s` IS NULL) OR (`t` IS NULL)) THEN TRUE ELSE (`s` <> `t` OR isnan(`s`) OR isnan(`t`)) END", ""},
		{"pandas fillna replaces NULL and NaN", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double, t double, n int\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    filled = s.fillna(0)\n    return filled.clip(0, 1)\n\ndf.select(f(col(\"s\")))\n",
			"CASE WHEN (CASE WHEN ((`s` IS NULL) OR isnan(`s`)) THEN 0.0D ELSE `s` END > 1.0D AND NOT isnan(CASE WHEN ((`s` IS NULL) OR isnan(`s`)) THEN 0.0D ELSE `s` END)) THEN 1.0D ELSE CASE WHEN (CASE WHEN ((`s` IS NULL) OR isnan(`s`)) THEN 0.0D ELSE `s` END < 0.0D AND NOT isnan(CASE WHEN ((`s` IS NULL) OR isnan(`s`)) THEN 0.0D ELSE `s` END)) THEN 0.0D ELSE CASE WHEN ((`s` IS NULL) OR isnan(`s`)) THEN 0.0D ELSE `s` END END END", ""},
		{"pandas & of comparisons and ~", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double, t double, n int\")\n\n@pandas_udf(\"boolean\")\ndef f(s: pd.Series) -> pd.Series:\n    return (s > 0) & ~(s.isna())\n\ndf.select(f(col(\"s\")))\n",
			"(CASE WHEN (`s` IS NULL) THEN FALSE ELSE (`s` > 0.0D AND NOT isnan(`s`)) END AND (NOT ((`s` IS NULL) OR isnan(`s`))))", ""},
		{"pandas clip with its bounds reversed", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return s.clip(5, 1)\n\ndf.select(f(col(\"s\")))\n",
			"", "Series.clip with lower above upper"},
		{"pandas negative bounds fold", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return s.clip(-1, -0.5)\n\ndf.select(f(col(\"s\")))\n",
			"nanvl(CASE WHEN CASE WHEN (`s` IS NULL) THEN FALSE ELSE (`s` > (-0.5D) AND NOT isnan(`s`)) END THEN (-0.5D) ELSE CASE WHEN CASE WHEN (`s` IS NULL) THEN FALSE ELSE (`s` < (-1.0D) AND NOT isnan(`s`)) END THEN (-1.0D) ELSE `s` END END, CAST(NULL AS DOUBLE))", ""},
		{"pandas -0 is the int 0", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return s * -0 + -0.0\n\ndf.select(f(col(\"s\")))\n",
			"nanvl(((`s` * 0.0D) + (-0.0D)), CAST(NULL AS DOUBLE))", ""},
		{"pandas np.where in a Series", ".py",
			"import numpy as np\nimport pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return pd.Series(np.where(s > 100, s * 0.9, s))\n\ndf.select(f(col(\"s\")))\n",
			"nanvl(CASE WHEN CASE WHEN (`s` IS NULL) THEN FALSE ELSE (`s` > 100.0D AND NOT isnan(`s`)) END THEN (`s` * 0.9D) ELSE `s` END, CAST(NULL AS DOUBLE))", ""},
		{"pandas np.where returned bare", ".py",
			"import numpy as np\nimport pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return np.where(s > 100, s, 0)\n\ndf.select(f(col(\"s\")))\n",
			"", "pandas_udf returning a scalar or an array"},
		{"pandas np.abs keeps a Series", ".py",
			"import numpy as np\nimport pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return np.abs(s) + s.fillna(1)\n\ndf.select(f(col(\"s\")))\n",
			"nanvl((abs(`s`) + CASE WHEN ((`s` IS NULL) OR isnan(`s`)) THEN 1.0D ELSE `s` END), CAST(NULL AS DOUBLE))", ""},
		{"pandas np bound to something else", ".py",
			"import numexpr as np\nimport pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return pd.Series(np.where(s > 100, s, 0))\n\ndf.select(f(col(\"s\")))\n",
			"", "name np"},
		{"pandas parameter with a default is declined", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\nK = 2.0\ndf = spark.createDataFrame([], \"s double\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series, K=3.0) -> pd.Series:\n    return s * K\n\ndf.select(f(col(\"s\")))\n",
			"", "pandas_udf"},
		{"pandas name read before it is assigned", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\nK = 2.0\ndf = spark.createDataFrame([], \"s double\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    x = s * K\n    K = 1.0\n    return x\n\ndf.select(f(col(\"s\")))\n",
			"", "name K"},
		{"pandas module constant", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\nK = 2.0\ndf = spark.createDataFrame([], \"s double\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return s * K\n\ndf.select(f(col(\"s\")))\n",
			"nanvl((`s` * 2.0D), CAST(NULL AS DOUBLE))", ""},
		{"pandas division by a Series", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double, t double, n int\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series, t: pd.Series) -> pd.Series:\n    return s / t\n\ndf.select(f(col(\"s\"), col(\"t\")))\n",
			"", "pandas / by t"},
		{"pandas int column", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double, t double, n int\")\n\n@pandas_udf(\"double\")\ndef f(n: pd.Series) -> pd.Series:\n    return n * 2\n\ndf.select(f(col(\"n\")))\n",
			"", "pandas_udf parameter n of type int"},
		{"pandas chained comparison", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double, t double, n int\")\n\n@pandas_udf(\"boolean\")\ndef f(s: pd.Series) -> pd.Series:\n    return 0 < s < 1\n\ndf.select(f(col(\"s\")))\n",
			"", "chained comparison on a Series"},
		{"pandas scalar result", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double, t double, n int\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return 1.0\n\ndf.select(f(col(\"s\")))\n",
			"", "pandas_udf returning a scalar or an array"},
		{"pandas rolling window", ".py",
			"import pandas as pd\nfrom pyspark.sql.functions import pandas_udf, col\ndf = spark.createDataFrame([], \"s double, t double, n int\")\n\n@pandas_udf(\"double\")\ndef f(s: pd.Series) -> pd.Series:\n    return s.rolling(3).mean()\n\ndf.select(f(col(\"s\")))\n",
			"", "Series.rolling"},
	}

	dir := t.TempDir()
	for i, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			path := filepath.Join(dir, "p"+string(rune('a'+i))+".py")
			require.NoError(t, os.WriteFile(path, []byte(r.src), 0o644))
			fe := frontends.New(udf.Python)
			us, err := fe.Parse(path, []byte(r.src))
			fe.Close()
			require.NoError(t, err)
			require.NotEmpty(t, us)
			u := &us[len(us)-1]
			require.Equal(t, udf.KindPandasUDF, u.Kind)
			require.NoError(t, typeinfer.Resolve(u, []byte(r.src), typeinfer.Options{}))
			assertRule(t, u, r.src, r.sql, r.declined)
		})
	}
}
