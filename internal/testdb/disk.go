package testdb

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"syscall"
	"testing"
)

// SmallDisk mounts a tmpfs of size bytes on a new directory, for the tests
// of a full disk, and unmounts it when the test ends. The directory
// belongs to owner (nil: root, open to everyone). Mounting needs root (CI
// runs as root); elsewhere the test skips, saying so.
func SmallDisk(t testing.TB, size int, owner *user.User) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a full disk is reproduced on a small tmpfs, which only root may mount: run the test as root (CI does)")
	}
	// Not under t.TempDir(), whose folders only root may enter: the
	// database server's user writes there.
	dir, err := os.MkdirTemp("", "kbserver-full-disk-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := fmt.Sprintf("size=%d,mode=0777", size)
	if owner != nil {
		opts = fmt.Sprintf("size=%d,mode=0700,uid=%s,gid=%s", size, owner.Uid, owner.Gid)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, opts); err != nil {
		t.Skipf("mount a tmpfs on %s: %v (a full disk is reproduced on one)", dir, err)
	}
	t.Cleanup(func() {
		// Detached: a database server may hold a file of it open a
		// little longer.
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount the tmpfs %s: %v", dir, err)
		}
	})
	return dir
}

// FillDisk writes a file in dir until its file system has no room left
// and returns the function that removes it.
func FillDisk(t testing.TB, dir string) (free func()) {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, chunk := range []int{1 << 20, 4 << 10, 1} {
		buf := make([]byte, chunk)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatalf("fill the disk: %v", err)
				}
				break
			}
		}
	}
	return func() {
		t.Helper()
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
	}
}
