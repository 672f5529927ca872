import Foundation

/// State shared between threads that wait for each other: the one place in the toolkit
/// that vouches for thread safety by hand (`@unchecked Sendable`).
///
/// Audit: `state` is private and only ever touched inside `withLock` or one of the `wait`
/// methods, all of which hold `condition`'s lock for the whole access; `State` must be
/// Sendable, so nothing reachable from it is shared unguarded. Every change to the state
/// wakes the waiters (`broadcast`), so a waiter never sleeps through the change it waits
/// for; only `wait(until:then:wakingOnlyIf:)` skips that, for changes its caller shows no
/// waiter needs.
package final class Guarded<State: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Reads or changes the state under the lock, then wakes every waiter.
    @discardableResult
    package func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&state)
    }

    /// Waits until `ready` holds, then runs `body` under the same lock hold (so what was
    /// waited for is still true in `body`), then wakes every waiter.
    @discardableResult
    package func wait<T>(until ready: (State) -> Bool, then body: (inout State) throws -> T) rethrows -> T {
        try wait(until: ready, then: body, wakingOnlyIf: { _ in true })
    }

    /// Like `wait(until:then:)`, but wakes the waiters only when `wakes` says the state is
    /// now one some waiter waits for: a change that no waiter's condition or deadline looks
    /// at need not cost every waiting thread a wake-up (and the waker a context switch).
    @discardableResult
    package func wait<T>(
        until ready: (State) -> Bool, then body: (inout State) throws -> T, wakingOnlyIf wakes: (State) -> Bool
    ) rethrows -> T {
        condition.lock()
        defer {
            if wakes(state) { condition.broadcast() }
            condition.unlock()
        }
        while !ready(state) { condition.wait() }
        return try body(&state)
    }

    /// Waits until `ready` holds or the time `deadline` gives (nil: none) has come, then
    /// runs `body` under the same lock hold (it looks at the state to see which), then wakes
    /// every waiter. The deadline is asked again after each wake-up: it may have moved.
    @discardableResult
    package func wait<T>(until ready: (State) -> Bool, orUntil deadline: (State) -> Date?, then body: (inout State) throws -> T) rethrows -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while !ready(state) {
            guard let time = deadline(state) else {
                condition.wait()
                continue
            }
            if Date() >= time || !condition.wait(until: time) { break }
        }
        return try body(&state)
    }
}
