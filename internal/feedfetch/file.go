package feedfetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
)

// fetchFile reads a file:// address: a local file, whose modification
// time stands for Last-Modified, and its modification time to the
// nanosecond with its size for an ETag: a file whose ETag is prev's (or,
// when prev has none, whose time is prev's) is unchanged, so that a file
// rewritten within the second it was read is read again. The size limit and the decompression of a gzip file apply
// as to an answer; the time limit applies to the reading.
func fetchFile(ctx context.Context, raw, shown string, prev Previous, lim Limits) (Result, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "file" || u.Path == "" || (u.Host != "" && u.Host != "localhost") {
		return Result{}, &Error{Kind: KindAddress, URL: shown, Err: errors.New("a local address is file:///path/to/file")}
	}
	f, err := os.Open(u.Path)
	if err != nil {
		return Result{}, classify(ctx, shown, 0, unwrapPath(err))
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return Result{}, classify(ctx, shown, 0, unwrapPath(err))
	}
	if st.IsDir() {
		f.Close()
		return Result{}, &Error{Kind: KindFile, URL: shown, Err: errors.New("it is a folder, not a file")}
	}
	r := Result{LastMod: st.ModTime().UTC().Format(http.TimeFormat), ETag: fmt.Sprintf(`"%x-%x"`, st.ModTime().UnixNano(), st.Size())}
	if prev.ETag == r.ETag || prev.ETag == "" && prev.LastModified == r.LastMod {
		f.Close()
		r.Unchanged = true
		return r, nil
	}
	if st.Size() > lim.MaxBytes {
		f.Close()
		return r, &Error{Kind: KindTooLarge, URL: shown, Err: fmt.Errorf("it has %d bytes, more than the limit of %d", st.Size(), lim.MaxBytes)}
	}
	b, err := open(ctx, &ctxReader{ctx: ctx, r: f}, f, shown, 0, lim)
	if err != nil {
		f.Close()
		return r, err
	}
	r.Body = b
	return r, nil
}

// unwrapPath drops the path from an *os.PathError, whose text would show
// it unredacted; the cause keeps its kind (not found, permission).
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// ctxReader stops reading a local file once the time limit passes.
type ctxReader struct {
	ctx context.Context
	r   interface{ Read([]byte) (int, error) }
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
