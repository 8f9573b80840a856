package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// stopNowKey holds, in a context of [WithSignals], the channel a second
// stop signal closes.
type stopNowKey struct{}

// WithSignals is ctx cancelled by the first stop signal (SIGINT, SIGTERM
// and, on Unix, SIGUSR1), its cause a [*SignalError]: a count stops
// handing out tasks then. A second signal closes the channel [StopNow]
// returns: the count stops waiting for the running tasks. stop undoes the
// handling.
func WithSignals(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	now := make(chan struct{})
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			cancel(&SignalError{Sig: s})
		case <-done:
			return
		}
		select {
		case <-sigs:
			close(now)
		case <-done:
		}
	}()
	return context.WithValue(ctx, stopNowKey{}, (<-chan struct{})(now)), func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// StopNow is the channel a second stop signal closes (nil outside
// [WithSignals]: never).
func StopNow(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(stopNowKey{}).(<-chan struct{})
	return ch
}

// signalExitCode is the exit code for a run stopped by s: 128 + its number.
func signalExitCode(s os.Signal) int {
	switch {
	case s == syscall.SIGTERM:
		return ExitTerminated
	case user1 != nil && s == user1:
		return ExitUser1
	}
	return ExitInterrupted
}

// signalName is the signal's conventional name: SIGINT, SIGTERM, SIGUSR1.
func signalName(s os.Signal) string {
	switch {
	case s == os.Interrupt:
		return "SIGINT"
	case s == syscall.SIGTERM:
		return "SIGTERM"
	case user1 != nil && s == user1:
		return "SIGUSR1"
	}
	return s.String()
}
