import Testing
@testable import TopRegionsSupport

/// What regions-load reads from /proc to decide whether to lower its session's CPU weight
/// (issue 35.3): the through-the-binary half is LoadPriorityEndToEndTests.
@Suite struct SessionWeightTests {
    @Test func aControllingTerminalIsTheSeventhFieldOfStat() {
        // A shell in a terminal (tty_nr 34816 is /dev/pts/0), and a cron job (none).
        #expect(SessionWeight.hasTerminal(stat: "6358 (sh) S 6355 6358 6355 34816 6358 4194304 106 0 0 0"))
        #expect(!SessionWeight.hasTerminal(stat: "6349 (sh) S 6314 6349 4710 0 -1 4194560 107 0 0 0"))
        // The command's name may hold spaces and parentheses: the fields start after the last ')'.
        #expect(!SessionWeight.hasTerminal(stat: "7 (a) 1 2 3 34816 (b) S 1 7 7 0 -1 4194560"))
        #expect(SessionWeight.hasTerminal(stat: "7 (x) 0 0 0 0) S 1 7 7 34817 -1 4194560"))
        #expect(!SessionWeight.hasTerminal(stat: "7 (truncated"))
    }

    @Test func theAutogroupsNiceValue() {
        #expect(SessionWeight.niceValue(autogroup: "/autogroup-2149 nice 0\n") == 0)
        #expect(SessionWeight.niceValue(autogroup: "/autogroup-12 nice 19\n") == 19)
        #expect(SessionWeight.niceValue(autogroup: "/autogroup-12 nice -5\n") == -5)
        #expect(SessionWeight.niceValue(autogroup: "/autogroup-12 weight 5\n") == nil)
        #expect(SessionWeight.niceValue(autogroup: "") == nil)
    }
}
