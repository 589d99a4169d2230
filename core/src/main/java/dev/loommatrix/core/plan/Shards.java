package dev.loommatrix.core.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Splits a plan into N shards whose estimated run times are balanced (longest cell first onto the
 * least-loaded shard), deterministically, so every machine that computes shard I/N gets the same cells.
 */
public final class Shards {

    private Shards() {}

    public record Shard(int index, int count) {
        public Shard {
            if (count < 1 || index < 1 || index > count) {
                throw new IllegalArgumentException("shard must be I/N with 1 ≤ I ≤ N, got " + index + "/" + count);
            }
        }

        public static Shard parse(String text) {
            String[] parts = text.split("/");
            if (parts.length != 2) {
                throw new IllegalArgumentException("shard must be I/N (e.g. 2/4), got '" + text + "'");
            }
            try {
                return new Shard(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("shard must be I/N with whole numbers, got '" + text + "'", e);
            }
        }
    }

    /** The cells of one shard, in plan order. */
    public static List<Cell> select(List<Cell> plan, Shard shard) {
        List<List<Cell>> shards = split(plan, shard.count());
        List<Cell> mine = shards.get(shard.index() - 1);
        return plan.stream().filter(mine::contains).toList();
    }

    public static List<List<Cell>> split(List<Cell> plan, int count) {
        List<List<Cell>> shards = new ArrayList<>();
        double[] load = new double[count];
        for (int i = 0; i < count; i++) {
            shards.add(new ArrayList<>());
        }
        List<Cell> byCost = new ArrayList<>(plan);
        byCost.sort(Comparator.comparingDouble(CostModel::estimateMs).reversed().thenComparing(Cell::id));
        for (Cell cell : byCost) {
            int target = 0;
            for (int i = 1; i < count; i++) {
                if (load[i] < load[target]) {
                    target = i;
                }
            }
            shards.get(target).add(cell);
            load[target] += CostModel.estimateMs(cell);
        }
        return shards;
    }
}
