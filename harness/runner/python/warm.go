package python

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/udfx/udfx/harness/internal/jobfree"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/confine"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/sandbox"
)

// WarmPool keeps warm interpreters for a run over folders: CPython
// processes that have imported pyspark (and, for UDFs that use them,
// pandas, pyarrow and numpy) and fork one driver per UDF, as Spark's
// pyspark.daemon forks its workers. A UDF's driver then starts in
// milliseconds instead of the half second CPython and pyspark take.
//
// Each interpreter runs in the sandbox the UDF's own driver would run in,
// serves one driver at a time, and after each clears what the driver left
// (processes, files in the private /tmp and /dev/shm, System V IPC
// objects: driver.py's zygote), so that the next driver finds what a
// fresh start finds. The memory limit is the driver's own (RLIMIT_AS,
// set after the fork), the time limit the runner's; a driver that has to
// be killed takes its interpreter with it, and the next UDF starts
// another.
type WarmPool struct {
	// Readable are the folders the UDFs' files lie in (the repositories
	// of the run): the interpreters' sandbox reads them.
	Readable []string
	// Warn, if not nil, is told when an interpreter cannot start: the
	// UDFs then start their own, only slower.
	Warn func(error)

	mu     sync.Mutex
	idle   map[string][]*zygote
	all    map[*zygote]struct{}
	failed map[string]bool
	closed bool
	served int
}

type warmPoolKey struct{}

// WithWarmPool returns ctx carrying p: the runners New makes under ctx
// fork their drivers from p's interpreters where p takes them.
func WithWarmPool(ctx context.Context, p *WarmPool) context.Context {
	return context.WithValue(ctx, warmPoolKey{}, p)
}

func warmPoolFrom(ctx context.Context) *WarmPool {
	p, _ := ctx.Value(warmPoolKey{}).(*WarmPool)
	return p
}

// Served is how many drivers the pool's interpreters forked.
func (p *WarmPool) Served() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.served
}

// Close stops every interpreter, and with them any driver still running.
func (p *WarmPool) Close() {
	p.mu.Lock()
	p.closed = true
	all := make([]*zygote, 0, len(p.all))
	for z := range p.all {
		all = append(all, z)
	}
	p.all, p.idle = nil, nil
	p.mu.Unlock()
	for _, z := range all {
		z.stop()
	}
}

// zygote is one warm interpreter.
type zygote struct {
	key    string
	cmd    *exec.Cmd
	conn   *net.UnixConn
	dir    string
	stderr *runner.Tail
	done   chan struct{}
	once   sync.Once
}

// stop kills the interpreter, its sandbox and any driver it forked.
func (z *zygote) stop() {
	z.once.Do(func() {
		runner.KillProcessGroup(z.cmd)
		z.conn.Close()
	})
	<-z.done
	os.RemoveAll(z.dir)
}

// warmChild is a driver forked by a zygote.
type warmChild struct {
	z    *zygote
	pool *WarmPool
	// ended closes when the zygote has answered the child's exit status
	// (or died); exited, once its stderr is read as well.
	ended  chan struct{}
	exited chan struct{}
	status string // set before ended closes
}

// kill ends the driver now. One that has exited already leaves its
// interpreter serving; otherwise the interpreter is killed with it, since
// the driver's process is in the interpreter's sandbox, out of udfx's
// reach.
func (c *warmChild) kill() {
	select {
	case <-c.ended:
	default:
		c.pool.drop(c.z)
		c.z.stop()
	}
}

func (c *warmChild) failure() string {
	<-c.exited
	return c.status
}

// flavour is which interpreter a UDF's driver forks from: one with pandas,
// pyarrow and numpy loaded where the driver would load them before the
// module (preload_libraries in driver.py), else one with pyspark alone.
func flavour(u *udf.UDF, file string) string {
	if u.Kind == udf.KindPandasUDF {
		return "pandas"
	}
	if f, err := os.Open(file); err == nil {
		defer f.Close()
		src, _ := io.ReadAll(io.LimitReader(f, 4<<20))
		for _, w := range []string{"pandas", "numpy", "pyarrow"} {
			if bytes.Contains(src, []byte(w)) {
				return "pandas"
			}
		}
	}
	return "plain"
}

// takes is whether the pool may fork r's driver: its file (not a
// notebook, whose code the cold driver reads from a file of its own) in
// one of the pool's folders.
func (p *WarmPool) takes(r *Runner) bool {
	if notebook.IsNotebook(r.file) {
		return false
	}
	for _, root := range p.Readable {
		if filepath.Clean(root) == "/tmp" || filepath.Clean(root) == "/" {
			// The sandbox would show the real /tmp: no private one to
			// clear between drivers.
			return false
		}
	}
	return slices.ContainsFunc(p.Readable, func(root string) bool {
		abs, err := filepath.Abs(root)
		return err == nil && confine.Within(abs, r.file)
	})
}

// fork starts r's driver as a child of a warm interpreter; ok is false
// where the pool does not take r or no interpreter could start, and the
// caller starts the driver as a process of its own.
func (p *WarmPool) fork(ctx context.Context, r *Runner) (*proc, bool) {
	if p == nil || !p.takes(r) {
		return nil, false
	}
	fl := flavour(r.u, r.file)
	key := r.python + "\x00" + r.sandbox.String() + "\x00" + fl
	z := p.acquire(ctx, r, key, fl)
	if z == nil {
		return nil, false
	}
	pr, err := p.request(z, filepath.Dir(r.file))
	if err != nil {
		p.drop(z)
		z.stop()
		p.warn(fmt.Errorf("a warm Python interpreter failed; it is stopped: %w", err))
		return nil, false
	}
	return pr, true
}

// acquire takes an idle interpreter for key or starts one; nil where none
// can start.
func (p *WarmPool) acquire(ctx context.Context, r *Runner, key, fl string) *zygote {
	p.mu.Lock()
	if p.closed || p.failed[key] {
		p.mu.Unlock()
		return nil
	}
	for idle := p.idle[key]; len(idle) > 0; idle = p.idle[key] {
		z := idle[len(idle)-1]
		p.idle[key] = idle[:len(idle)-1]
		select {
		case <-z.done:
			// It died while idle: forget it.
			delete(p.all, z)
			continue
		default:
		}
		p.mu.Unlock()
		return z
	}
	p.mu.Unlock()
	z, err := p.start(ctx, r, key, fl)
	p.mu.Lock()
	if err != nil {
		first := !p.failed[key] && ctx.Err() == nil
		if first {
			// Not tried again this run: a start that failed once
			// would fail for every UDF, each paying for it.
			if p.failed == nil {
				p.failed = map[string]bool{}
			}
			p.failed[key] = true
		}
		p.mu.Unlock()
		if first {
			p.warn(fmt.Errorf("a warm Python interpreter did not start; each UDF starts its own: %w", err))
		}
		return nil
	}
	if p.closed {
		p.mu.Unlock()
		z.stop()
		return nil
	}
	if p.all == nil {
		p.all = map[*zygote]struct{}{}
	}
	p.all[z] = struct{}{}
	p.mu.Unlock()
	return z
}

// release returns z, whose driver has ended, to the idle ones.
func (p *WarmPool) release(z *zygote) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.all[z]; !ok {
		return
	}
	if p.idle == nil {
		p.idle = map[string][]*zygote{}
	}
	p.idle[z.key] = append(p.idle[z.key], z)
}

// drop forgets z, which is being stopped.
func (p *WarmPool) drop(z *zygote) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.all, z)
	if idle := p.idle[z.key]; idle != nil {
		p.idle[z.key] = slices.DeleteFunc(idle, func(o *zygote) bool { return o == z })
	}
}

func (p *WarmPool) warn(err error) {
	if p.Warn != nil {
		p.Warn(err)
	}
}

// start starts an interpreter in its sandbox and waits for it to be ready.
// Its interpreter and sandbox are r's, which key names; r's start limit
// bounds the wait.
func (p *WarmPool) start(ctx context.Context, r *Runner, key, fl string) (*zygote, error) {
	python, sb, limit := r.python, r.sandbox, r.opts.Limits.Start()
	mode := "open"
	if sb.Contained() {
		mode = "contained"
	}
	dir, err := os.MkdirTemp("", "udfx-python-warm-")
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*zygote, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "driver.py"), driverSource, 0o600); err != nil {
		return fail(err)
	}
	if err := jobfree.Write(dir); err != nil {
		return fail(err)
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return fail(fmt.Errorf("socketpair: %w", err))
	}
	local, remote := os.NewFile(uintptr(fds[0]), "warm-python"), os.NewFile(uintptr(fds[1]), "warm-python-child")
	defer remote.Close()
	c, err := net.FileConn(local)
	local.Close()
	if err != nil {
		return fail(err)
	}
	conn, ok := c.(*net.UnixConn)
	if !ok {
		c.Close()
		return fail(errors.New("socketpair: not a Unix socket"))
	}
	// The requests' socket is descriptor 3: the first of ExtraFiles,
	// before the sandbox's own.
	cmd := exec.Command(python, "-u", filepath.Join(dir, "driver.py"), "--zygote", mode, fl)
	cmd.Dir = dir
	cmd.Env = driverEnv()
	cmd.ExtraFiles = []*os.File{remote}
	runner.SetProcessGroup(cmd)
	z := &zygote{key: key, cmd: cmd, conn: conn, dir: dir, stderr: &runner.Tail{Max: 16 << 10}, done: make(chan struct{})}
	cmd.Stderr = z.stderr
	if err := sb.Start(cmd, sandbox.Paths{Readable: append([]string{python, dir}, p.Readable...)}); err != nil {
		conn.Close()
		return fail(err)
	}
	go func() {
		cmd.Wait()
		close(z.done)
	}()
	ready := make(chan error, 1)
	go func() {
		buf := make([]byte, 16)
		n, err := conn.Read(buf)
		if err == nil && string(buf[:n]) != "ready" {
			err = fmt.Errorf("unexpected greeting %q", buf[:n])
		}
		ready <- err
	}()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case err = <-ready:
	case <-t.C:
		err = fmt.Errorf("not ready after %s", limit)
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		z.stop()
		return nil, fmt.Errorf("%w: %s", err, lastLines(z.stderr.String(), 5))
	}
	return z, nil
}

// request forks a driver from z with fresh pipes, in folder cwd, and
// returns it; z comes back to the pool when the driver has ended.
func (p *WarmPool) request(z *zygote, cwd string) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	msg, err := json.Marshal(map[string]string{"cwd": cwd})
	if err == nil {
		_, _, err = z.conn.WriteMsgUnix(msg, syscall.UnixRights(int(inR.Fd()), int(outW.Fd()), int(errW.Fd())), nil)
	}
	// The child has its own copies now; udfx keeps only its ends.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	p.mu.Lock()
	p.served++
	p.mu.Unlock()
	tail := &runner.Tail{Max: 16 << 10}
	child := &warmChild{z: z, pool: p, ended: make(chan struct{}), exited: make(chan struct{})}
	pr := &proc{warm: child, stdin: inW, stdout: bufio.NewReaderSize(outR, 1<<16), stderr: tail, exited: child.exited}
	copied := make(chan struct{})
	go func() {
		io.Copy(tail, errR)
		errR.Close()
		close(copied)
	}()
	go func() {
		buf := make([]byte, 32)
		n, err := z.conn.Read(buf)
		var status int
		if err == nil {
			status, err = strconv.Atoi(string(buf[:n]))
		}
		if err != nil {
			// The interpreter died with its driver (killed, or its
			// sandbox gone): it serves no more.
			child.status = "signal: killed"
			p.drop(z)
			z.stop()
		} else {
			if ws := syscall.WaitStatus(status); ws.Signaled() {
				child.status = "signal: " + ws.Signal().String()
			} else if ws.ExitStatus() != 0 {
				child.status = "exit status " + strconv.Itoa(ws.ExitStatus())
			}
			p.release(z)
		}
		close(child.ended)
		// As exec.Cmd.Wait does: the rest of stderr, bounded by
		// WaitDelay, then the end of stdout.
		select {
		case <-copied:
		case <-time.After(runner.WaitDelay):
		}
		outR.Close()
		close(child.exited)
	}()
	return pr, nil
}
