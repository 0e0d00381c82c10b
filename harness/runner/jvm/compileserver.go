package jvm

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/internal/confine"
	"github.com/udfx/udfx/internal/sandbox"
)

// The warm compiler (driver/UdfxCompileServer.java) and its scalac entry.
//
//go:embed driver/UdfxCompileServer.java
var compileServerSource []byte

//go:embed driver/UdfxScalac.java
var compileServerScalac []byte

const compileServerClass = "UdfxCompileServer"

// maxServerOutput bounds what one compile's answer may claim to hold: a
// longer claim is a broken server, not a compiler's output.
const maxServerOutput = 64 << 20

// CompilePool holds warm compilers for a run over many UDFs: one JVM per
// toolchain that runs scalac and javac once per UDF, instead of a JVM per
// compile. A cold scalac spends about 3 s of its 3.3 s on a 2-core
// machine loading and warming itself; a warm one compiles a small file in
// about 0.2 s.
//
// A compile goes to the pool only where it runs no code of the
// repository: against Spark's and Scala's jars alone (no build classpath,
// whose jars could hold macros), javac without annotation processing. The
// server is contained as the compiles were (the same sandbox decision),
// reading the folders in Readable and writing only the compile cache's
// class folder; a compile whose files lie elsewhere, or that the server
// fails to run, runs as its own command as before. The compiled classes
// are the same: each request is a fresh compiler run with the command's
// arguments.
type CompilePool struct {
	// Readable are the folders the compiled sources lie in (the
	// repositories of the run).
	Readable []string
	// Warn, if not nil, is told once per server why it stopped serving
	// (it did not start, or it failed a compile): the run goes on with
	// compiles as commands, only slower, and the user can see why.
	Warn func(error)

	mu      sync.Mutex
	servers map[string]*compileServer
	closed  bool
	served  int
}

// Served is how many compiles the pool's warm compilers ran.
func (p *CompilePool) Served() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.served
}

type compilePoolKey struct{}

// WithCompilePool returns ctx carrying p: the compiles of the runners New
// makes under ctx use p's warm compilers. A context carries it because the
// pool belongs to one run over folders, not to any one UDF's options.
func WithCompilePool(ctx context.Context, p *CompilePool) context.Context {
	return context.WithValue(ctx, compilePoolKey{}, p)
}

func compilePoolFrom(ctx context.Context) *CompilePool {
	p, _ := ctx.Value(compilePoolKey{}).(*CompilePool)
	return p
}

// Close stops every server of the pool, each once its compile in flight
// (if any) has answered; a compile that reaches a server after Close
// runs as a command.
func (p *CompilePool) Close() {
	p.mu.Lock()
	p.closed = true
	servers := p.servers
	p.servers = nil
	p.mu.Unlock()
	for _, s := range servers {
		s.mu.Lock()
		s.broken = true
		s.stop()
		s.mu.Unlock()
	}
}

// compileRequest is one compile for the pool: the tool ("scalac" or
// "javac"), its arguments as its command line takes them (no JVM
// options), the source files it reads and the folder it writes.
type compileRequest struct {
	tool    string
	args    []string
	sources []string
	out     string
}

// compile runs req on the warm compiler for t, contained as sb says. ok
// is false where the pool does not take the compile or its server failed
// it: the caller then runs the compiler as a command.
func (p *CompilePool) compile(ctx context.Context, t *Tools, sb *sandbox.Decision, cacheDir string, req compileRequest) (toolResult, bool, error) {
	if p == nil {
		return toolResult{}, false, nil
	}
	classesRoot, err := filepath.Abs(filepath.Join(cacheDir, "classes"))
	out, oerr := filepath.Abs(req.out)
	if err != nil || oerr != nil || !confine.Within(classesRoot, out) || !p.takes(req, classesRoot) {
		return toolResult{}, false, nil
	}
	key := strings.Join(append([]string{t.Java, cacheDir, strconv.FormatBool(sb.Contained())}, t.ScalaJars...), "\x00")
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return toolResult{}, false, nil
	}
	s := p.servers[key]
	if s == nil {
		s = &compileServer{}
		if p.servers == nil {
			p.servers = map[string]*compileServer{}
		}
		p.servers[key] = s
	}
	p.mu.Unlock()

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken {
		return toolResult{}, false, nil
	}
	if s.cmd == nil {
		if err := s.start(ctx, t, sb, cacheDir, classesRoot, p.Readable); err != nil {
			// The run goes on with a compile per command, only slower.
			s.broken = true
			p.warn(fmt.Errorf("the warm %s compiler did not start; compiles run as commands: %w", req.tool, err))
			return toolResult{}, false, nil
		}
	}
	res, err := s.request(ctx, req)
	if err != nil {
		// A server that fails one request is stopped for the rest of
		// the run: its state is unknown.
		s.broken = true
		s.stop()
		if ctx.Err() != nil {
			return toolResult{}, false, ctx.Err()
		}
		p.warn(fmt.Errorf("the warm compiler failed a compile and is stopped; compiles run as commands: %w", err))
		return toolResult{}, false, nil
	}
	p.mu.Lock()
	p.served++
	p.mu.Unlock()
	return res, true, nil
}

func (p *CompilePool) warn(err error) {
	if p.Warn != nil {
		p.Warn(err)
	}
}

// takes is whether the pool may run req: every source in Readable or in
// the cache's class folder (udfx's lifted sources), and no argument the
// line protocol cannot carry.
func (p *CompilePool) takes(req compileRequest, classesRoot string) bool {
	for _, a := range req.args {
		if strings.ContainsAny(a, "\n\r") {
			return false
		}
	}
	for _, src := range req.sources {
		abs, err := filepath.Abs(src)
		if err != nil || !confine.Within(classesRoot, abs) && !slices.ContainsFunc(p.Readable, func(root string) bool { return confine.Within(root, abs) }) {
			return false
		}
	}
	return true
}

// compileServer is one warm compiler JVM. Its mutex serializes requests:
// the server compiles one at a time.
type compileServer struct {
	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	done   chan struct{}
	broken bool
}

// start compiles the server's classes (udfx's own code, once per JDK and
// Scala compiler, cached like the driver) and starts it contained, able
// to write only the compile cache's class folder.
func (s *compileServer) start(ctx context.Context, t *Tools, sb *sandbox.Decision, cacheDir, classesRoot string, readable []string) error {
	var jars []string
	for _, j := range t.ScalaJars {
		jars = append(jars, resolved(j))
	}
	cp := strings.Join(t.ScalaJars, string(os.PathListSeparator))
	sources := map[string][]byte{compileServerClass + ".java": compileServerSource}
	if len(t.ScalaJars) > 0 {
		// UdfxScalac needs Scala's jars; without them the server is a
		// warm javac only.
		sources["UdfxScalac.java"] = compileServerScalac
	}
	key := hashOf([]byte("compile-server"), compileServerSource, compileServerScalac, []byte(t.JDKVersion), []byte(strings.Join(jars, ":")))
	dir, err := compileOwnJava(ctx, t, filepath.Join(cacheDir, "compile-server"), key, cp, sources,
		func(output string) error {
			return fmt.Errorf("compiling udfx's compile server: %s", tail(output, 2000))
		}, nil)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(classesRoot, 0o755); err != nil {
		return err
	}
	classes := filepath.Join(dir, "classes")
	serverCP := classes
	if cp != "" {
		serverCP += string(os.PathListSeparator) + cp
	}
	args := append(slices.Clone(CompilerJVMFlags), "-Xss16m", "-cp", serverCP, compileServerClass)
	// The server outlives the request that starts it: it ends when the
	// pool closes it, not with that request's context.
	cmd := runner.Command(context.WithoutCancel(ctx), t.Java, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	paths := sandbox.Paths{
		Writable: []string{classesRoot},
		Readable: append(append([]string{classes, t.JavaHome, t.Java, t.SparkJars}, t.ScalaJars...), readable...),
	}
	if err := sb.Start(cmd, paths); err != nil {
		return err
	}
	s.cmd, s.stdin, s.stdout = cmd, stdin, bufio.NewReader(stdout)
	s.done = make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(s.done)
	}()
	return nil
}

// request sends req and reads its answer; ctx ending stops the server.
func (s *compileServer) request(ctx context.Context, req compileRequest) (toolResult, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%d\n", req.tool, len(req.args))
	for _, a := range req.args {
		b.WriteString(a)
		b.WriteByte('\n')
	}
	type answer struct {
		res toolResult
		err error
	}
	got := make(chan answer, 1)
	go func() {
		if _, err := io.WriteString(s.stdin, b.String()); err != nil {
			got <- answer{err: err}
			return
		}
		var head [8]byte
		if _, err := io.ReadFull(s.stdout, head[:]); err != nil {
			got <- answer{err: err}
			return
		}
		code, n := int32(binary.BigEndian.Uint32(head[:4])), binary.BigEndian.Uint32(head[4:])
		if n > maxServerOutput {
			got <- answer{err: fmt.Errorf("compile server: an answer of %d bytes", n)}
			return
		}
		out := make([]byte, n)
		if _, err := io.ReadFull(s.stdout, out); err != nil {
			got <- answer{err: err}
			return
		}
		if code < 0 {
			got <- answer{err: errors.New(string(out))}
			return
		}
		got <- answer{res: toolResult{code: int(code), output: string(out)}}
	}()
	select {
	case a := <-got:
		return a.res, a.err
	case <-s.done:
		return toolResult{}, errors.New("compile server exited")
	case <-ctx.Done():
		return toolResult{}, ctx.Err()
	}
}

// stop ends the server and its sandbox.
func (s *compileServer) stop() {
	if s.cmd == nil {
		return
	}
	_ = s.stdin.Close()
	runner.KillProcessGroup(s.cmd)
	<-s.done
	s.cmd = nil
}
