package spark

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The port and master log lines are what Spark 4.1.1 printed in
// TestPortInUse and TestBadMaster (spark-driver.log), cut to the lines
// that matter; the jvm case is constructed in the shape of a JVM that
// fails to start, the connect one in grpc's shape for a refused channel.
func TestStartErrorClassification(t *testing.T) {
	tests := []struct {
		name   string
		w      wireError
		log    string
		remote string
		cause  StartCause
		says   string
	}{
		{"port", wireError{Message: "An error occurred while calling None.org.apache.spark.api.java.JavaSparkContext."},
			"java.net.BindException: Address already in use: Service 'sparkDriver' failed after 0 retries (on a random free port)! Consider explicitly setting the appropriate binding address for the service 'sparkDriver'\n\tat java.base/sun.nio.ch.Net.bind0(Native Method)\n",
			"", CausePortInUse, "Service 'sparkDriver' failed after 0 retries"},
		{"master", wireError{Message: "[JAVA_GATEWAY_EXITED] Java gateway process exited before sending its port number.", Condition: "JAVA_GATEWAY_EXITED"},
			"Exception in thread \"main\" org.apache.spark.SparkException: Master must either be yarn or start with spark, k8s, or local\n\tat org.apache.spark.deploy.SparkSubmit.error(SparkSubmit.scala:1092)\n",
			"", CauseMaster, "Master must either be yarn or start with spark, k8s, or local (the master is nonsense://nowhere)"},
		{"jvm", wireError{Message: "[JAVA_GATEWAY_EXITED] Java gateway process exited before sending its port number.", Condition: "JAVA_GATEWAY_EXITED"},
			"Error: Could not create the Java Virtual Machine.\nException in thread \"main\" java.lang.IllegalArgumentException: bad heap\n",
			"", CauseJVM, "java.lang.IllegalArgumentException: bad heap"},
		{"connect", wireError{Message: "<_MultiThreadedRendezvous of RPC that terminated with: status = StatusCode.UNAVAILABLE details = \"failed to connect to all addresses\">"},
			"", "sc://localhost:15002", CauseConnect, "StatusCode.UNAVAILABLE"},
		// The driver's own probe (driver.py probe_connect), as it reports it.
		{"connect-probe", wireError{Message: "no Spark Connect server at localhost:15002: [Errno 111] Connection refused", Text: "no Spark Connect server at localhost:15002: [Errno 111] Connection refused"},
			"", "sc://localhost:15002", CauseConnect, "no Spark Connect server at localhost:15002"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "spark-driver.log")
			if err := os.WriteFile(log, []byte(tc.log), 0o644); err != nil {
				t.Fatal(err)
			}
			e := startError(&tc.w, "nonsense://nowhere", tc.remote, log)
			if e.Cause != tc.cause || !strings.Contains(e.Error(), tc.says) {
				t.Fatalf("got %s: %v", e.Cause, e)
			}
			if strings.Contains(e.Error(), "\tat ") || !strings.Contains(e.Error(), log) || e.Hint == "" {
				t.Errorf("message: %v", e)
			}
			if tc.cause != CauseConnect && e.Condition != "" {
				t.Errorf("condition %q: pyspark's JAVA_GATEWAY_EXITED hides the cause", e.Condition)
			}
		})
	}
}

func TestParamCount(t *testing.T) {
	for desc, want := range map[string]int{
		"()D": 0, "(D)D": 1, "(Ljava/lang/Double;)Ljava/lang/Double;": 1,
		"(DLjava/lang/String;[I[[Ljava/lang/Object;J)V": 5, "bad": -1,
	} {
		if got := paramCount(desc); got != want {
			t.Errorf("paramCount(%q) = %d, want %d", desc, got, want)
		}
	}
}

func TestSimpleNameAndSourceRef(t *testing.T) {
	for bin, want := range map[string][2]string{
		"a.b.ToFahrenheit":       {"ToFahrenheit", "_root_.a.b.ToFahrenheit"},
		"a.b.Outer$ToFahrenheit": {"ToFahrenheit", "_root_.a.b.Outer.ToFahrenheit"},
		"a.b.Obj$":               {"Obj$", "_root_.a.b.Obj"},
		"Top":                    {"Top", "_root_.Top"},
	} {
		if s := simpleName(bin); s != want[0] {
			t.Errorf("simpleName(%q) = %q", bin, s)
		}
		if r := sourceRef(bin, true); r != want[1] {
			t.Errorf("sourceRef(%q) = %q", bin, r)
		}
	}
	if _, err := parseClass([]byte("not a class")); err == nil {
		t.Error("parseClass accepted garbage")
	}
}
