package opencl

// A device's memory: each kernel's buffers on the device, in sets (the
// search's one, one a batch of the join's), each buffer grown as a launch
// needs and kept for the next.

// bufSet is a set of buffers on the device: the search's, or one batch's
// of the join (joinBuf* below), and the events of its commands not yet
// collected.
type bufSet struct {
	bufs   [20]clMem
	sizes  [20]uintptr // their sizes in bytes
	events []timedEvent
	stage  [20]staging // where pinned, each input's staging buffer (pinned.go)
}

// release releases the set's buffers, staging buffers (unmapped on q, the
// upload queue, where their copies went) and events.
func (s *bufSet) release(q clQueue) {
	for i := range s.stage {
		s.stage[i].release(q)
	}
	for i, m := range s.bufs {
		if m != 0 {
			cl.releaseMem(m)
		}
		s.bufs[i], s.sizes[i] = 0, 0
	}
	for _, e := range s.events {
		if e.ev != 0 {
			cl.releaseEvent(e.ev)
		}
	}
	s.events = nil
}

// ensure makes buffer k of the set s at least size bytes on c's device,
// with flags.
func (s *bufSet) ensure(c *core, k int, size uintptr, flags uint64) error {
	size = max(size, 64)
	if s.sizes[k] >= size {
		return nil
	}
	if s.bufs[k] != 0 {
		cl.releaseMem(s.bufs[k])
		s.bufs[k] = 0
	}
	size += size / 4 // room to grow, within the largest buffer the device allocates
	if c.info.MaxAlloc > 0 && uint64(size) > c.info.MaxAlloc {
		size = max(size-size/5, uintptr(c.info.MaxAlloc))
	}
	var code int32
	m := cl.createBuffer(c.ctx, flags, size, nil, &code)
	if err := check("clCreateBuffer", code); err != nil {
		s.sizes[k] = 0
		return err
	}
	s.bufs[k], s.sizes[k] = m, size
	return nil
}

// last is the event of the set's last command queued (0: none since the
// set's events were collected).
func (s *bufSet) last() clEvent {
	if len(s.events) == 0 {
		return 0
	}
	return s.events[len(s.events)-1].ev
}
