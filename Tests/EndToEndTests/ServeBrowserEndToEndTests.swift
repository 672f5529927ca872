import Foundation
import Testing
import TopRegionsTestSupport

/// regions-serve in a real browser: Chromium, loading images lazily as a person's browser
/// does, in a small window, driven by Tests/Browser/check_served.py, with the fake Flickr's
/// request log as the proof of what was asked for.
@Suite struct ServeBrowserEndToEndTests {
    @Test func aPersonBrowsesAndFlickrIsAskedOnlyForWhatComesOnScreen() throws {
        let scratch = TemporaryDirectory()
        // A world with a surge (a region whose photographers tripled in its last 3 hours), and
        // the tools' clock at the fake's: the last hour and the rising regions are its own.
        let fake = try FakeFlickrProcess(NetworkEndToEndTests.world + ["--regions", "10", "--large-bytes", "30000", "--surge", "120"], scratch: scratch)
        let world = try JSONSerialization.jsonObject(with: Data(try fake.control("/_fake/world", post: false).utf8)) as! [String: Any]
        let db = scratch.file("photos.db")
        let environment = fake.environment(home: scratch.path, ["TZ": "UTC", "TOPREGIONS_NOW": "\(WindowsEndToEndTests.now)"])
        var env = environment
        env["DB"] = db
        let refresh = try Tools.shell(#""$BIN/flickr-recent" -q --db "$DB" | "$BIN/place-resolve" -q --db "$DB" | "$BIN/regions-load" -q --db "$DB""#, environment: env)
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let top = try JSONSerialization.jsonObject(with: Data(try Tools.run("regions-top", ["--db", db, "--limit", "1"], environment: environment).stdoutBytes)) as! [String: Any]
        let region = top["region_id"] as! String
        #expect(top["photos"] as! Int >= 300, "a region of at least 300 photos")
        // A photo with a hostile title, in that region.
        let hostile = #"{"id":"99000000001","owner":"1@N01","owner_name":"x","title":"<script>alert(1)</script>","description":"<img src=x onerror=alert(2)>","latitude":\#(top["latitude"]!),"longitude":\#(top["longitude"]!),"uploaded":1000,"region_id":"\#(region)","region":"\#(top["name"]!)"}"#
        // Words longer than any screen: a 10,000-character title, a region named by a
        // 3,000-character word (it is in the top list), a long search echoed back.
        let longTitle = "https://example.com/" + String(repeating: "a", count: 10_000)
        let longName = String(repeating: "Ω", count: 3_000)
        let long = #"{"id":"99000000002","owner":"2@N01","owner_name":"\#(String(repeating: "n", count: 500))","title":"\#(longTitle)","latitude":10,"longitude":10,"uploaded":1001,"region_id":"R-long","region":"\#(longName)"}"#
        let load = try Tools.run("regions-load", ["--db", db, "-q"], input: Array((hostile + "\n" + long + "\n").utf8), environment: environment)
        #expect(load.status == 0, "\(load.stderr)")

        let server = try ServerProcess(["--db", db, "--cache-dir", scratch.file("cache"), "--port", "0", "-q"], environment: environment, scratch: scratch)
        let caller = ProcessInfo.processInfo.environment
        let browserEnvironment = ["PATH": caller["PATH"] ?? "/usr/bin:/bin", "HOME": scratch.path, "LANG": "C.UTF-8"]
        let shots = scratch.file("shots")
        let checker = Tools.packageRoot.appendingPathComponent("Tests/Browser/check_served.py").path
        let check = try Tools.run(
            "/usr/bin/env", ["python3", checker, server.url, fake.logPath, region, "99000000001", "--screenshots", shots,
                             "--surging", world["surge_region_id"] as! String],
            environment: browserEnvironment)
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)\n(bin/test installs chromium, chromium-driver and selenium)")
        #expect(check.stdout.hasSuffix("all checks passed\n"))
        let stopped = server.stop()
        #expect(stopped.status == 0 && stopped.stderr == "", "\(stopped.stderr)")

        if caller["UPDATE_SCREENSHOTS"] == "1" {
            let docs = Tools.packageRoot.appendingPathComponent("docs")
            for name in ["served-top", "served-region", "served-photo", "served-top-phone", "served-rising", "served-photo-dark-phone"] {
                let target = docs.appendingPathComponent(name + ".png")
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(atPath: shots + "/\(name).png", toPath: target.path)
            }
        }
    }
}
