// Seed 002's own program, as the article prints it (shared/seeds/002), formatted but unchanged in
// behaviour: 10,000 tasks that sleep 300 ms, on a virtual thread each and on fixed pools of 200, 500,
// 800 and 1,000 platform threads, three rounds in one JVM, wall time by System.currentTimeMillis().
// run-beside.sh runs it next to loom-matrix's sleep-bound cell in the same image with the same limits.
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

public class PerformanceTest {
    private static final int REQUEST_NUM = 10000;

    public static void main(String[] args) {
        long vir = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0;
        for (int i = 0; i < 3; i++) {
            vir += testVirtualThread();
            p1 += testPlatformThread(200);
            p2 += testPlatformThread(500);
            p3 += testPlatformThread(800);
            p4 += testPlatformThread(1000);
            System.out.println("--------------");
        }
        System.out.println("Average duration of virtual threads:" + vir / 3 + "ms");
        System.out.println("Average duration of platform threads [200]:" + p1 / 3 + "ms");
        System.out.println("Average duration of platform threads [500]:" + p2 / 3 + "ms");
        System.out.println("Average duration of platform threads [800]:" + p3 / 3 + "ms");
        System.out.println("Average duration of platform threads [1000]:" + p4 / 3 + "ms");
    }

    private static long testVirtualThread() {
        long startTime = System.currentTimeMillis();
        ExecutorService executorService = Executors.newVirtualThreadPerTaskExecutor();
        for (int i = 0; i < REQUEST_NUM; i++) {
            executorService.submit(PerformanceTest::handleRequest);
        }
        executorService.close();
        long useTime = System.currentTimeMillis() - startTime;
        System.out.println("Virtual thread duration:" + useTime + "ms");
        return useTime;
    }

    private static long testPlatformThread(int poolSize) {
        long startTime = System.currentTimeMillis();
        ExecutorService executorService = Executors.newFixedThreadPool(poolSize);
        for (int i = 0; i < REQUEST_NUM; i++) {
            executorService.submit(PerformanceTest::handleRequest);
        }
        executorService.close();
        long useTime = System.currentTimeMillis() - startTime;
        System.out.printf("Platform thread [%d] duration:%dms\n", poolSize, useTime);
        return useTime;
    }

    private static void handleRequest() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            throw new RuntimeException(e);
        }
    }
}
