package testkit_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"ttt/agents/testkit"
)

// childEnv makes the test binary, run again, the parent of
// TestDieWithTest: it starts a process that would sleep for a minute,
// prints its pid, and waits to be killed.
const childEnv = "TESTKIT_PARENT"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		sleeper := testkit.DieWithTest(exec.Command("sleep", "60"))
		if err := sleeper.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(sleeper.Process.Pid)
		sleeper.Wait()
		os.Exit(1) // the sleeper died first: the parent was not killed
	}
	os.Exit(m.Run())
}

// A process started with DieWithTest dies when the program that started
// it is killed (SIGKILL, which nothing can catch, as a -timeout's end
// leaves it to the kernel): the test kills such a program, here the test
// binary again, and waits for its child to go.
func TestDieWithTest(t *testing.T) {
	parent := testkit.DieWithTest(exec.Command(os.Args[0], "-test.run=^$"))
	parent.Env = append(os.Environ(), childEnv+"=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		parent.Process.Kill()
		parent.Wait()
		t.Fatalf("the parent printed no pid: %v", err)
	}
	pid, err := strconv.Atoi(line[:len(line)-1])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) }) // should the test fail
	parent.Process.Kill()
	parent.Wait()
	// The kernel sends the signal as the parent exits, so this waits
	// only for its delivery: a sleeper still there when the test's time
	// is nearly up (a minute without -timeout) was not killed.
	deadline := time.Now().Add(time.Minute)
	if end, ok := t.Deadline(); ok {
		deadline = end.Add(-time.Until(end) / 20)
	}
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d, started with DieWithTest, outlived its parent", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// gone reports whether process pid has ended: there is no such process,
// or it is a zombie, waiting for init, its parent now, to reap it.
func gone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	return zombie(pid)
}

// zombie reports whether process pid has ended and waits for its parent
// to reap it.
func zombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// pid (comm) state ...: the state follows the last ')'.
	for i := len(stat) - 1; i >= 0; i-- {
		if stat[i] == ')' {
			return i+2 < len(stat) && stat[i+2] == 'Z'
		}
	}
	return false
}
