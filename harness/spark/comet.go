package spark

import (
	"archive/zip"
	"fmt"
	"maps"
	"os"
	"slices"
)

// CometVersion is the Apache DataFusion Comet release udfx runs with
// --engine comet (mavenjar.Comet is its jar).
const CometVersion = "1.2.0"

// CometSettings are the Spark settings a session with Config.Comet starts
// with, as Comet's installation guide asks for them: the plugin that
// rewrites plans into Comet's native operators, Comet's shuffle manager (a
// static setting: it must be there when the SparkContext starts), an
// off-heap pool for Comet's native memory (Comet's driver plugin disables
// Comet without one), and the fallback report in the driver's log, which
// says why an operator did not run natively, with a note on each operator
// that runs expressions through Comet's JVM codegen dispatcher (in Comet,
// but Spark's generated code, not native). udfx reads the same report
// per query from Comet's ExtendedExplainInfo (SideResult.NativeReport).
var CometSettings = map[string]string{
	"spark.plugins":                        "org.apache.spark.CometPlugin",
	"spark.shuffle.manager":                "org.apache.spark.sql.comet.execution.shuffle.CometShuffleManager",
	"spark.comet.enabled":                  "true",
	"spark.comet.exec.enabled":             "true",
	"spark.comet.shuffle.enabled":          "true",
	"spark.memory.offHeap.enabled":         "true",
	"spark.memory.offHeap.size":            "2g",
	"spark.comet.explain.fallback.enabled": "true",
	"spark.comet.explain.codegen.enabled":  "true",
}

// Name names the engine a session runs jobs on: "Apache Spark 4.1.1",
// "Apache Spark 4.1.1 with DataFusion Comet 1.2.0".
func (i Info) Name() string {
	if i.Comet != "" {
		return fmt.Sprintf("Apache Spark %s with DataFusion Comet %s", i.SparkVersion, i.Comet)
	}
	return "Apache Spark " + i.SparkVersion
}

// cometSettings is CometSettings, sorted, for a request and a pool key.
func cometSettings() map[string]string { return maps.Clone(CometSettings) }

// checkCometJar makes sure jar is a Comet plugin jar before a JVM starts
// with it: a wrong path would otherwise surface as a ClassNotFoundException
// deep in the driver's log.
func checkCometJar(jar string) error {
	st, err := os.Stat(jar)
	if err != nil {
		return &EnvError{What: "Comet", Msg: fmt.Sprintf("the Comet jar: %v", err)}
	}
	if !st.Mode().IsRegular() {
		return &EnvError{What: "Comet", Msg: fmt.Sprintf("the Comet jar %s is not a file", jar)}
	}
	z, err := zip.OpenReader(jar)
	if err != nil {
		return &EnvError{What: "Comet", Msg: fmt.Sprintf("the Comet jar %s: %v", jar, err)}
	}
	defer z.Close()
	want := []string{"org/apache/spark/CometPlugin.class", "org/apache/comet/ExtendedExplainInfo.class"}
	for _, f := range z.File {
		if i := slices.Index(want, f.Name); i >= 0 {
			want = slices.Delete(want, i, i+1)
		}
	}
	if len(want) > 0 {
		return &EnvError{What: "Comet", Msg: fmt.Sprintf("%s is not a DataFusion Comet jar: it has no %s", jar, want[0])}
	}
	return nil
}
