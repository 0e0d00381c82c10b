package spark

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// EnvError says the machine lacks what a Spark session needs: Java, a Java
// Spark does not run on, pyspark or SPARK_HOME, the Python packages of the
// Spark Connect client. Msg says what to do.
type EnvError struct {
	What string // "Java", "Python", "Spark", "Spark Connect client"
	Msg  string
	// Missing lists Python packages to install (Spark Connect).
	Missing []string
}

func (e *EnvError) Error() string { return fmt.Sprintf("spark: %s: %s", e.What, e.Msg) }

// StartCause says why a session did not start.
type StartCause string

const (
	// CauseJVM: the JVM did not start or died while starting.
	CauseJVM StartCause = "jvm"
	// CausePortInUse: a port Spark binds (spark.driver.port,
	// spark.blockManager.port, ...) is taken.
	CausePortInUse StartCause = "port-in-use"
	// CauseMaster: the master URL is malformed or not reachable.
	CauseMaster StartCause = "master"
	// CauseConnect: no Spark Connect server answers at the remote URL.
	CauseConnect StartCause = "connect"
	// CauseOther: another error while starting the session.
	CauseOther StartCause = "other"
)

// StartError is a session that did not start. Summary is the first
// meaningful line of Spark's error, Hint what to do, Log the file that
// holds the whole output of the driver and the JVM.
type StartError struct {
	Cause     StartCause
	Summary   string
	Condition string
	Hint      string
	Log       string
}

func (e *StartError) Error() string {
	var b strings.Builder
	b.WriteString("spark: the session did not start")
	if e.Cause != CauseOther {
		fmt.Fprintf(&b, " (%s)", e.Cause)
	}
	b.WriteString(": ")
	b.WriteString(e.Summary)
	if e.Condition != "" && !strings.Contains(e.Summary, "["+e.Condition+"]") {
		fmt.Fprintf(&b, " [%s]", e.Condition)
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	if e.Log != "" {
		fmt.Fprintf(&b, " (full log: %s)", e.Log)
	}
	return b.String()
}

// Side names the query of a job: the original UDF or the rewrite.
type Side string

const (
	Original Side = "original"
	Rewrite  Side = "rewrite"
)

// JobError is a Spark job that failed: an exception in the UDF, an ANSI
// error in the rewrite, an analysis error (unknown function, wrong type).
// Spark fails the whole job at the first failing row and does not say which
// row it was, so there is no row here. Class is the root cause's class (a
// Java class, or for a Python UDF the Python exception's name), Condition
// Spark's error condition where there is one (DIVIDE_BY_ZERO,
// FAILED_EXECUTE_UDF, ...), Message the root cause's first line.
type JobError struct {
	Side      Side
	Class     string
	Condition string
	Message   string
	// Chain is every exception from Spark's outermost to the root cause,
	// "class: first line" each.
	Chain []string
	Log   string
}

func (e *JobError) Error() string {
	s := fmt.Sprintf("spark: the %s failed: %s", e.Side, e.Class)
	if e.Condition != "" && !strings.Contains(e.Message, "["+e.Condition+"]") {
		s += " [" + e.Condition + "]"
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// SessionError is the driver process failing outside a job: it died, it
// broke the protocol, the JVM went away.
type SessionError struct {
	Msg string
	Log string
}

func (e *SessionError) Error() string {
	if e.Log != "" {
		return fmt.Sprintf("spark: %s (full log: %s)", e.Msg, e.Log)
	}
	return "spark: " + e.Msg
}

// wireError is the driver's {"ok": false, "error": {...}}.
type wireError struct {
	Kind      string   `json:"kind"`
	What      string   `json:"what"`
	Msg       string   `json:"msg"`
	Missing   []string `json:"missing"`
	Version   string   `json:"version"`
	Class     string   `json:"class"`
	Condition string   `json:"condition"`
	Message   string   `json:"message"`
	Text      string   `json:"text"`
	Chain     []struct {
		Class     string `json:"class"`
		Message   string `json:"message"`
		Condition string `json:"condition"`
	} `json:"chain"`
	// notcallable, compile
	UDF    string `json:"udf"`
	Reason string `json:"reason"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	// job (bench)
	Side  string     `json:"side"`
	Error *wireError `json:"error"`
}

func (w *wireError) chainLines() []string {
	out := make([]string, 0, len(w.Chain))
	for _, c := range w.Chain {
		out = append(out, c.Class+": "+firstLine(c.Message))
	}
	return out
}

func (w *wireError) jobError(side Side, log string) *JobError {
	return &JobError{Side: side, Class: w.Class, Condition: w.Condition, Message: firstLine(w.Message), Chain: w.chainLines(), Log: log}
}

var (
	bindRE       = regexp.MustCompile(`(?i)(Address already in use|BindException|could not bind on|failed after \d+ retries)`)
	masterRE     = regexp.MustCompile(`(?i)(Could not parse Master URL[^\n]*|Master must either be yarn or start with spark, k8s, or local|Failed to connect to master[^\n]*|All masters are unresponsive[^\n]*|Cannot load YARN classes[^\n]*)`)
	connectRE    = regexp.MustCompile(`(?i)(StatusCode\.UNAVAILABLE|failed to connect to all addresses|Connection refused|CONNECT_URL_|INVALID_CONNECT_URL|no Spark Connect server at)`)
	classVerRE   = regexp.MustCompile(`(UnsupportedClassVersionError[^\n]*|class file version [0-9.]+[^\n]*)`)
	exceptionRE  = regexp.MustCompile(`(?m)^(?:Exception in thread "[^"]*" )?((?:[a-z][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)(?::[^\n]*)?)$`)
	gatewayRE    = regexp.MustCompile(`JAVA_GATEWAY_EXITED`)
	javaHomeRE   = regexp.MustCompile(`JAVA_HOME is not set`)
	conditionRE  = regexp.MustCompile(`^\[([A-Z][A-Z0-9_.]+)\]`)
	stackFrameRE = regexp.MustCompile(`^\s+at |^\s*\.\.\. \d+ more`)
)

// startError classifies the driver's report of a failed start, with the
// log for what the JVM printed before it died.
func startError(w *wireError, master, remote, logPath string) *StartError {
	logText := ""
	if b, err := os.ReadFile(logPath); err == nil {
		logText = string(b)
		if len(logText) > 4<<20 {
			logText = logText[len(logText)-4<<20:]
		}
	}
	text := w.Message + "\n" + w.Text + "\n"
	for _, c := range w.Chain {
		text += c.Class + ": " + c.Message + "\n"
	}
	all := text + logText
	e := &StartError{Cause: CauseOther, Condition: w.Condition, Log: logPath, Summary: summarize(w, logText)}
	switch {
	case remote != "" && connectRE.MatchString(text):
		e.Cause = CauseConnect
		e.Hint = fmt.Sprintf("no Spark Connect server answers at %s: start one (sbin/start-connect-server.sh) or fix the host and port", remote)
	case bindRE.MatchString(all):
		e.Cause = CausePortInUse
		if m := bindRE.FindString(all); m != "" {
			e.Summary = lineAround(all, m)
		}
		e.Hint = "a port Spark binds is taken: free it, or leave spark.driver.port and spark.blockManager.port unset (random ports), or raise spark.port.maxRetries"
	case masterRE.MatchString(all):
		e.Cause = CauseMaster
		e.Summary = masterRE.FindString(all)
		if !strings.Contains(e.Summary, master) {
			e.Summary += " (the master is " + master + ")"
		}
		e.Hint = "give a master Spark accepts: local, local[N], local[*], spark://host:7077, yarn, k8s://https://host:443 (and check that the cluster is up)"
	case classVerRE.MatchString(all):
		e.Cause = CauseJVM
		e.Summary = classVerRE.FindString(all)
		e.Hint = "the JVM is too old for these Spark jars: set JAVA_HOME to a Java this Spark runs on"
	case javaHomeRE.MatchString(all):
		e.Cause = CauseJVM
		e.Summary = "JAVA_HOME is not set and there is no java on PATH"
		e.Hint = "install a JDK and set JAVA_HOME"
	case gatewayRE.MatchString(text):
		e.Cause = CauseJVM
		if s := lastException(logText); s != "" {
			e.Summary = s
		}
		e.Hint = "the JVM exited before Spark came up: read the log, check JAVA_HOME, memory (spark.driver.memory) and the --conf settings"
	}
	if e.Cause == CausePortInUse || e.Cause == CauseMaster || e.Cause == CauseJVM {
		// The cause is in the JVM's output; pyspark's own condition
		// (JAVA_GATEWAY_EXITED) would only say that the JVM went away.
		e.Condition = ""
	}
	if e.Condition == "" {
		if m := conditionRE.FindStringSubmatch(e.Summary); m != nil {
			e.Condition = m[1]
		}
	}
	return e
}

// summarize picks the first meaningful line of Spark's error: the root
// cause's message, else the exception's text without stack frames.
func summarize(w *wireError, logText string) string {
	if len(w.Chain) > 0 {
		root := w.Chain[len(w.Chain)-1]
		if l := firstLine(root.Message); l != "" {
			return root.Class + ": " + l
		}
		return root.Class
	}
	for _, l := range strings.Split(w.Text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !stackFrameRE.MatchString(l) {
			return l
		}
	}
	if s := lastException(logText); s != "" {
		return s
	}
	if w.Message != "" {
		return firstLine(w.Message)
	}
	return "no error message (see the log)"
}

// lastException is the last "pkg.SomeException: message" line of a log.
func lastException(log string) string {
	m := exceptionRE.FindAllStringSubmatch(log, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// lineAround returns the whole line of text holding sub.
func lineAround(text, sub string) string {
	i := strings.Index(text, sub)
	if i < 0 {
		return sub
	}
	start := strings.LastIndexByte(text[:i], '\n') + 1
	end := strings.IndexByte(text[i:], '\n')
	if end < 0 {
		end = len(text) - i
	}
	line := strings.TrimSpace(text[start : i+end])
	// Log4j's JSON lines and "Caused by:" prefixes are noise here.
	line = strings.TrimPrefix(line, "Caused by: ")
	if len(line) > 400 {
		line = line[:400] + "..."
	}
	return line
}
