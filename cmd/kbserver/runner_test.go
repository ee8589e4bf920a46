package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestRunnerStartFails: Start runs the first passes in order and stops at
// the first that fails; the jobs after it do not run.
func TestRunnerStartFails(t *testing.T) {
	var ran []string
	job := func(name string, err error) kb.Job {
		return kb.Job{Name: name, Every: time.Hour, Run: func(context.Context) error { ran = append(ran, name); return err }}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var r runner
	err := r.Start(ctx, job("first", nil), job("second", errors.New("broken")), job("third", nil))
	cancel()
	r.Wait()
	if err == nil || err.Error() != "second: broken" || len(ran) != 2 || ran[0] != "first" || ran[1] != "second" {
		t.Fatalf("Start = %v after %v; want second's error after first and second", err, ran)
	}
}

// TestRunnerRepeats: a job with an interval runs again, a failed pass
// does not stop it, and Wait returns once its context has ended.
func TestRunnerRepeats(t *testing.T) {
	passes := make(chan struct{}, 100)
	first := true
	job := kb.Job{Name: "repeated", Every: time.Millisecond, Run: func(context.Context) error {
		passes <- struct{}{}
		if first {
			first = false
			return nil
		}
		return errors.New("a failed pass is logged, and the job goes on")
	}}
	ctx, cancel := context.WithCancel(context.Background())
	var r runner
	if err := r.Start(ctx, job, kb.Job{Name: "once", Run: func(context.Context) error { return nil }}); err != nil {
		t.Fatal(err)
	}
	for range 3 { // the first pass and two repeated ones, the first of which fails
		select {
		case <-passes:
		case <-time.After(10 * time.Second):
			t.Fatal("the job did not run again")
		}
	}
	cancel()
	r.Wait()
}
