package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageBytes bounds one inbound JSON-RPC line.
const MaxMessageBytes = 16 << 20

// StdioTransport is MCP's stdio transport, newline-delimited JSON-RPC,
// made robust to a client's mistakes: the SDK's IOTransport ends the
// session at the first line that is not a JSON-RPC message (unterminated
// JSON, an array, binary bytes), unanswered and dropping the replies
// still pending. Here such a line is answered as JSON-RPC 2.0 says (-32700
// for text that is not JSON, -32600 for JSON that is not a request) and
// the session goes on; at the end of input the session ends once every
// request read has been answered.
type StdioTransport struct {
	In  io.Reader
	Out io.Writer
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &stdioConn{out: t.Out, incoming: make(chan inbound), closed: make(chan struct{}), answered: make(chan struct{}, 1)}
	go c.readLoop(bufio.NewReaderSize(t.In, 64<<10))
	return c, nil
}

type inbound struct {
	msg jsonrpc.Message
	err error
}

type stdioConn struct {
	out      io.Writer
	incoming chan inbound
	closed   chan struct{}
	once     sync.Once

	writeMu sync.Mutex
	mu      sync.Mutex
	pending map[jsonrpc.ID]int // requests read and not yet answered
	// answered wakes a Read that waits at the end of input for the
	// pending replies.
	answered chan struct{}
}

// readLoop reads lines, answers the malformed ones itself and hands the
// messages to Read.
func (c *stdioConn) readLoop(r *bufio.Reader) {
	for {
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			msg, rerr := decodeLine(line, tooLong)
			if rerr != nil {
				if werr := c.writeRaw(rerr); werr != nil {
					c.deliver(inbound{err: werr})
					return
				}
			} else if !c.deliver(inbound{msg: msg}) {
				return
			}
		}
		if err != nil {
			c.deliver(inbound{err: err})
			return
		}
	}
}

func (c *stdioConn) deliver(in inbound) bool {
	select {
	case c.incoming <- in:
		return true
	case <-c.closed:
		return false
	}
}

// readLine reads one line without its newline; past MaxMessageBytes it
// discards the rest of the line and says so.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxMessageBytes+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// decodeLine decodes one message, or returns the error response to send.
func decodeLine(line []byte, tooLong bool) (jsonrpc.Message, []byte) {
	switch {
	case tooLong:
		return nil, errorResponse(nil, jsonrpc.CodeParseError, fmt.Sprintf("Parse error: a message longer than %d MiB", MaxMessageBytes>>20))
	case !json.Valid(line):
		return nil, errorResponse(nil, jsonrpc.CodeParseError, "Parse error: not valid JSON")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		return nil, errorResponse(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: not a JSON object (batches are not supported)")
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, errorResponse(obj["id"], jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
	}
	return msg, nil
}

// errorResponse is a JSON-RPC error response; id is the request's id when
// it could be read (a string or a number), else null.
func errorResponse(id json.RawMessage, code int, msg string) []byte {
	var v any
	if json.Unmarshal(id, &v) != nil {
		v = nil
	}
	switch v.(type) {
	case string, float64:
	default:
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: msg}})
	return b
}

func (c *stdioConn) writeRaw(b []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(b, '\n'))
	return err
}

// Read implements mcp.Connection. At the end of input it waits for the
// replies to the requests already read before it reports io.EOF.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case in := <-c.incoming:
		if in.err != nil {
			if errors.Is(in.err, io.EOF) {
				c.drain(ctx)
			}
			return nil, in.err
		}
		if req, ok := in.msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			if c.pending == nil {
				c.pending = map[jsonrpc.ID]int{}
			}
			c.pending[req.ID]++
			c.mu.Unlock()
		}
		return in.msg, nil
	}
}

// drain waits until no request is left unanswered.
func (c *stdioConn) drain(ctx context.Context) {
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-ctx.Done():
			return
		case <-c.closed:
			return
		}
	}
}

// Write implements mcp.Connection.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if err := c.writeRaw(b); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if c.pending[resp.ID] > 1 {
			c.pending[resp.ID]--
		} else {
			delete(c.pending, resp.ID)
		}
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return nil
}

// Close implements mcp.Connection.
func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *stdioConn) SessionID() string { return "" }
